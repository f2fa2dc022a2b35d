import { ScriptedModel } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import {
  createPlatform,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type TesseraEvent,
  type ToolOutput,
} from '../src/index.ts';
import { toolbox } from './helpers.ts';

/** A provider that answers each call from `batches`, counting how it was read. */
function batchingModel(answers: readonly (readonly unknown[])[][]) {
  const read = { stream: 0, streamBatches: 0 };
  let call = 0;
  const model: ModelProvider = {
    id: 'batching',
    async *stream(): AsyncIterable<ModelStreamEvent> {
      read.stream++;
      yield* [];
      throw new Error('the loop reads streamBatches when a provider has it');
    },
    async *streamBatches(_request: ModelRequest): AsyncIterable<readonly ModelStreamEvent[]> {
      read.streamBatches++;
      for (const batch of answers[call++] ?? []) yield batch as ModelStreamEvent[];
    },
  };
  return { model, read };
}

async function run(model: ModelProvider, plugins = [toolbox().plugin]) {
  const platform = createPlatform({ model, plugins });
  const events: TesseraEvent[] = [];
  platform.events.subscribe({}, (event) => void events.push(event));
  const conversation = await platform.conversations.create({ userId: 'u' });
  const prompt = await platform.send({ conversationId: conversation.id, userId: 'u', input: 'go' });
  return { prompt, events };
}

describe('a provider that streams in batches (ModelProvider.streamBatches)', () => {
  it('is read in batches, every event of a batch taken in order, across batches', async () => {
    const { model, read } = batchingModel([
      [
        [
          { type: 'text-delta', delta: 'Let me ' },
          { type: 'text-delta', delta: 'look.' },
          { type: 'tool-call', callId: 'c1', name: 'demo.echo', arguments: '{"text":"a"}' },
        ],
        [
          { type: 'tool-call', callId: 'c2', name: 'demo.echo', arguments: '{"text":"b"}' },
          { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } },
          { type: 'finish', reason: 'tool_calls' },
        ],
      ],
      [
        [
          { type: 'text-delta', delta: 'Done.' },
          { type: 'finish', reason: 'stop' },
        ],
      ],
    ]);
    const { prompt, events } = await run(model);
    expect(read).toEqual({ stream: 0, streamBatches: 2 });
    expect(prompt.state).toBe('completed');
    const said = prompt.output.map((o) =>
      o.type === 'tool' ? `call ${JSON.stringify((o as ToolOutput).result)}` : o.type,
    );
    expect(said).toEqual([
      'text',
      'call {"type":"success","output":{"echoed":"a"}}',
      'call {"type":"success","output":{"echoed":"b"}}',
      'text',
    ]);
    expect(prompt.output[0]).toMatchObject({ type: 'text', text: 'Let me look.' });
    expect(prompt.usage).toMatchObject({ modelCalls: 2, inputTokens: 3, outputTokens: 2 });
    const deltas = events.flatMap((e) => (e.type === 'prompt.text-delta' ? [e.delta] : []));
    expect(deltas).toEqual(['Let me ', 'look.', 'Done.']);
  });

  it('fails the prompt with a model error when a batch is not an array', async () => {
    const { model } = batchingModel([[{ type: 'finish', reason: 'stop' } as unknown as unknown[]]]);
    const { prompt } = await run(model);
    expect(prompt.state).toBe('failed');
    expect(prompt.stopReason).toEqual({
      code: 'model_error',
      message: 'The model call failed: The provider streamed a batch that is not an array.',
    });
  });

  it('the scripted model streams the same events by either method', async () => {
    const turn = { text: ['a', 'b'], toolCalls: [{ name: 'x', args: { n: 1 }, id: 'c' }], streamMs: 1 };
    const collect = async (iterable: AsyncIterable<ModelStreamEvent | readonly ModelStreamEvent[]>) => {
      const all: unknown[] = [];
      for await (const item of iterable) all.push(item);
      return all;
    };
    const request = { model: 'm', modelClass: 'normal', instructions: '', messages: [], tools: [] } as const;
    const signal = new AbortController().signal;
    const events = await collect(new ScriptedModel([turn]).stream(request, signal));
    const batches = await collect(new ScriptedModel([turn]).streamBatches(request, signal));
    // With streamMs, the first event comes alone, then the rest together.
    expect(batches.map((batch) => (batch as unknown[]).length)).toEqual([1, events.length - 1]);
    expect(batches.flat()).toEqual(events);
    const broken = await new ScriptedModel([{ ...turn, streamMs: 0, breakAfter: 2 }])
      .streamBatches(request, signal)
      [Symbol.asyncIterator]();
    expect((await broken.next()).value).toEqual(events.slice(0, 2));
    await expect(broken.next()).rejects.toThrow('The connection was lost.');
  });
});
