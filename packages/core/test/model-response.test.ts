import { assertWellFormed, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import type {
  ModelStreamEvent,
  PromptOutput,
  ReasoningOutput,
  TextOutput,
  ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

const call = (callId: string, text: string): ModelStreamEvent => ({
  type: 'tool-call',
  callId,
  name: 'demo.echo',
  arguments: JSON.stringify({ text }),
});
const responseOf = (output: PromptOutput | undefined) =>
  (output as TextOutput | ToolOutput | ReasoningOutput | undefined)?.responseId;

describe('one model response in the record', () => {
  it('records text the model streamed after its calls after them, in stream order', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          events: [
            { type: 'text-delta', delta: 'Let me ' },
            { type: 'text-delta', delta: 'look.' },
            call('a', 'one'),
            { type: 'text-delta', delta: 'And also:' },
            call('b', 'two'),
            { type: 'text-delta', delta: 'Back soon.' },
          ],
        },
        reply('Found both.'),
      ],
    });
    const prompt = await t.send('look twice');
    expect(prompt.state).toBe('completed');
    expect(
      prompt.output.map((o) => (o.type === 'text' ? o.text : o.type === 'tool' ? o.callId : o.type)),
    ).toEqual(['Let me look.', 'a', 'And also:', 'b', 'Back soon.', 'Found both.']);
    const tools = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    expect(tools.map((o) => o.result)).toEqual([
      { type: 'success', output: { echoed: 'one' } },
      { type: 'success', output: { echoed: 'two' } },
    ]);
    // One response: the same id on each of its outputs, another on the next one's.
    const first = responseOf(prompt.output[0]);
    expect(prompt.output.slice(0, 5).map(responseOf)).toEqual(Array(5).fill(first));
    expect(responseOf(prompt.output[5])).not.toBe(first);

    // The model gets its answer back as it gave it, then the results.
    const second = t.model.requests[1]!.messages;
    assertWellFormed(second);
    expect(second.map((m) => (m.type === 'message' ? m.content : m.type))).toEqual([
      'look twice',
      'Let me look.',
      'function_call',
      'And also:',
      'function_call',
      'Back soon.',
      'function_call_output',
      'function_call_output',
    ]);
  });

  it('sends parallel calls back as one answer followed by their results (A, B, result A, result B)', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        callTools(
          { name: 'demo.echo', args: { text: 'a' }, id: 'a' },
          { name: 'demo.echo', args: { text: 'b' }, id: 'b' },
        ),
        reply('Both.'),
      ],
    });
    const prompt = await t.send('two at once');
    const [a, b] = prompt.output as ToolOutput[];
    expect(a!.responseId).toMatch(/^rsp_/);
    expect(b!.responseId).toBe(a!.responseId);
    const second = t.model.requests[1]!.messages;
    expect(
      second.map((m) => (m.type === 'message' ? m.content : `${m.type} ${'callId' in m ? m.callId : ''}`)),
    ).toEqual([
      'two at once',
      'function_call a',
      'function_call b',
      'function_call_output a',
      'function_call_output b',
    ]);
    expect(second[1]).toMatchObject({ responseId: a!.responseId });
    expect(second[2]).toMatchObject({ responseId: a!.responseId });
    // Later prompts see the same grouping (from the stored record, not the running projection).
    t.model.push(reply('Again.'));
    await t.send('and now?');
    expect(t.model.lastRequest!.messages.slice(0, 5)).toEqual(second);
  });

  it('records what a call emits right after the call, and projects it after the response’s results', async () => {
    const { badgesPlugin } = await import('@tessera-fixtures/badges');
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin, badgesPlugin],
      script: [
        callTools(
          { name: 'badges.award', args: { label: 'First' } },
          { name: 'demo.echo', args: { text: 'x' } },
        ),
        reply('Done'),
      ],
    });
    const prompt = await t.send('go');
    expect(prompt.output.map((o) => o.type)).toEqual([
      'tool',
      'x-badges.badge',
      'x-badges.confetti',
      'tool',
      'text',
    ]);
    expect(prompt.output[1]?.toolCallId).toBe(prompt.output[0]?.id);
    const second = t.model.requests[1]!.messages;
    assertWellFormed(second);
    expect(second.map((m) => (m.type === 'message' ? m.content : m.type))).toEqual([
      'go',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      '[badge awarded: First (bronze)]',
    ]);
  });

  it('records a refusal as refused text, streams it, and shows it to the model', async () => {
    const t = await createTestPlatform({
      script: [
        {
          events: [
            { type: 'refusal-delta', delta: "I'm sorry, " },
            { type: 'refusal-delta', delta: "I can't help with that." },
          ],
        },
        reply('Fine.'),
      ],
    });
    const deltas: { outputId: string; delta: string }[] = [];
    t.platform.events.subscribe({}, (e) => {
      if (e.type === 'prompt.text-delta') deltas.push({ outputId: e.outputId, delta: e.delta });
    });
    const prompt = await t.send('something bad');
    expect(prompt.state).toBe('completed');
    expect(prompt.output).toEqual([
      expect.objectContaining({ type: 'text', text: "I'm sorry, I can't help with that.", refusal: true }),
    ]);
    expect(deltas.map((d) => d.outputId)).toEqual([prompt.output[0]!.id, prompt.output[0]!.id]);
    await t.send('why?');
    expect(t.model.lastRequest!.messages).toEqual([
      { type: 'message', role: 'user', content: 'something bad' },
      {
        type: 'message',
        role: 'assistant',
        content: "I'm sorry, I can't help with that.",
        responseId: responseOf(prompt.output[0]),
      },
      { type: 'message', role: 'user', content: 'why?' },
    ]);
  });

  it('records streamed reasoning text as its own output, completed by the reasoning item that follows', async () => {
    const { plugin } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin],
      script: [
        {
          events: [
            { type: 'reasoning-delta', delta: 'The user wants ' },
            { type: 'reasoning-delta', delta: 'an echo.' },
            { type: 'reasoning', providerData: { reasoning_details: [{ type: 'reasoning.encrypted' }] } },
            { type: 'text-delta', delta: 'Echoing.' },
            { type: 'reasoning-delta', delta: 'Then call it.' },
            call('c1', 'hi'),
          ],
        },
        {
          events: [
            { type: 'reasoning-delta', delta: 'partial' },
            { type: 'reasoning', text: 'The whole reasoning.', summary: 'Short.' },
            { type: 'text-delta', delta: 'Done.' },
          ],
        },
      ],
    });
    const prompt = await t.send('echo hi');
    const said = prompt.output.map((o) =>
      o.type === 'reasoning'
        ? { reasoning: o.text, summary: o.summary, providerData: o.providerData }
        : o.type === 'text'
          ? o.text
          : o.type,
    );
    expect(said).toEqual([
      {
        reasoning: 'The user wants an echo.',
        summary: undefined,
        providerData: { reasoning_details: [{ type: 'reasoning.encrypted' }] },
      },
      'Echoing.',
      { reasoning: 'Then call it.', summary: undefined, providerData: undefined },
      'tool',
      { reasoning: 'The whole reasoning.', summary: 'Short.', providerData: undefined },
      'Done.',
    ]);
    const second = t.model.requests[1]!.messages;
    const responseId = responseOf(prompt.output[0]);
    expect(second.slice(1)).toEqual([
      {
        type: 'reasoning',
        summary: undefined,
        text: 'The user wants an echo.',
        providerData: { reasoning_details: [{ type: 'reasoning.encrypted' }] },
        responseId,
      },
      { type: 'message', role: 'assistant', content: 'Echoing.', responseId },
      { type: 'reasoning', summary: undefined, text: 'Then call it.', providerData: undefined, responseId },
      { type: 'function_call', callId: 'c1', name: 'demo.echo', arguments: '{"text":"hi"}', responseId },
      { type: 'function_call_output', callId: 'c1', output: '{"echoed":"hi"}' },
    ]);
  });
});
