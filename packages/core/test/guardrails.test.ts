import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { definePlugin, type GuardrailOutput, type ModelRequest, type ToolOutput } from '../src/index.ts';
import { gate, toolbox } from './helpers.ts';

/** Everything a request sends the model, as one text to search. */
const sent = (request: ModelRequest) => JSON.stringify(request.messages);

const pii = definePlugin({
  id: 'pii',
  guardrails: {
    input: ({ input }) => (input?.includes('SSN') ? { trip: 'No social security numbers.' } : undefined),
  },
});

describe('what a guardrail blocked never reaches the model', () => {
  it("a tripped input is withheld from every later prompt's request: the record keeps it, the model reads a note", async () => {
    const t = await createTestPlatform({ plugins: [pii], script: [reply('Hello.'), reply('Still here.')] });
    const blocked = await t.send('my SSN is 078-05-1120');
    expect(blocked.state).toBe('failed');
    expect(blocked.input).toBe('my SSN is 078-05-1120'); // the record keeps it
    expect(blocked.output).toEqual([
      expect.objectContaining({ type: 'guardrail', guardrail: 'input', plugin: 'pii', target: 'input' }),
    ]);
    await t.send('hello');
    await t.send('and again');
    for (const request of t.model.requests) {
      expect(sent(request)).not.toContain('078-05-1120');
      expect(sent(request)).toContain("blocked by the input guardrail of 'pii'");
    }
  });

  it('a tripped steering message is withheld from the next prompt too', async () => {
    const { plugin: gatePlugin, inside, open } = gate();
    const t = await createTestPlatform({
      plugins: [gatePlugin, pii],
      script: [callTool('gate.wait'), reply('Next answer.')],
    });
    const run = await t.platform.start({ conversationId: t.conversation.id, userId: t.userId, input: 'go' });
    await inside;
    await t.platform.messages.send({
      conversationId: t.conversation.id,
      userId: t.userId,
      input: 'my SSN is 078-05-1120',
      mode: 'steer',
    });
    open();
    expect((await run.done).stopReason?.code).toBe('guardrail');
    await t.send('what now?');
    const next = t.model.requests.at(-1)!;
    expect(sent(next)).not.toContain('078-05-1120');
    expect(sent(next)).toContain('what now?');
  });
});

describe('output guardrails see each response whole, before its calls run', () => {
  const leak = definePlugin({
    id: 'leak',
    guardrails: {
      output: ({ text, calls }) =>
        text.includes('SECRET') || calls.some((call) => JSON.stringify(call.input).includes('SECRET'))
          ? { trip: 'Secrets stay in.' }
          : undefined,
    },
  });

  it("a trip on a response's text stops its calls: none runs, each gets a result, the prompt fails", async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin, leak],
      script: [
        {
          ...callTools(
            { name: 'demo.echo', args: { text: 'one' } },
            { name: 'demo.echo', args: { text: 'two' } },
          ),
          text: 'The SECRET is 42.',
        },
        reply('Later answer.'),
      ],
    });
    const prompt = await t.send('tell me');
    expect(ran).toEqual([]);
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toEqual({ code: 'guardrail', message: 'Secrets stay in.' });
    const tools = prompt.output.filter((o): o is ToolOutput => o.type === 'tool');
    expect(tools).toHaveLength(2);
    for (const tool of tools) expect(tool.result).toMatchObject({ type: 'error' });
    const trip = prompt.output.find((o): o is GuardrailOutput => o.type === 'guardrail');
    expect(trip).toMatchObject({ guardrail: 'output', target: 'response', targetId: tools[0]!.responseId });

    // The tripped response is never sent back: not its text, not its calls.
    await t.send('go on');
    const next = t.model.requests.at(-1)!;
    expect(sent(next)).not.toContain('SECRET');
    expect(next.messages.some((m) => m.type === 'function_call')).toBe(false);
    expect(sent(next)).toContain("blocked by the output guardrail of 'leak'");
  });

  it("sees the calls' arguments: a call carrying the secret is stopped before it runs", async () => {
    const { plugin, ran } = toolbox();
    const t = await createTestPlatform({
      plugins: [plugin, leak],
      script: [callTool('demo.echo', { text: 'SECRET 42' }), reply('never')],
    });
    const prompt = await t.send('echo it');
    expect(ran).toEqual([]);
    expect(prompt.stopReason?.code).toBe('guardrail');
    expect(t.model.requests).toHaveLength(1);
  });

  it('a response that passes runs its calls and is checked again at the final answer', async () => {
    const { plugin, ran } = toolbox();
    const seen: { text: string; calls: number; final: boolean }[] = [];
    const watch = definePlugin({
      id: 'watch',
      guardrails: {
        output: ({ text, calls, final }) => {
          seen.push({ text, calls: calls.length, final });
          return undefined;
        },
      },
    });
    const t = await createTestPlatform({
      plugins: [plugin, watch],
      script: [callTool('demo.echo', { text: 'hi' }), reply('Done.')],
    });
    expect((await t.send('echo')).state).toBe('completed');
    expect(ran).toHaveLength(1);
    expect(seen).toEqual([
      { text: '', calls: 1, final: false },
      { text: 'Done.', calls: 0, final: true },
    ]);
  });
});
