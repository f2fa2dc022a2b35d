import { estimateTokens, type ModelMessage, type Prompt } from '@tessera/core';
import { createTestPlatform, reply, type ScriptedTurn } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { type CompactionOutput, compactionPlugin } from '../src/index.ts';

const userTexts = (messages: readonly ModelMessage[]) =>
  messages
    .filter((m) => m.type === 'message' && m.role === 'user')
    .map((m) => (m as { content: string }).content);

/** The scripted summarizer writes down the user messages it was sent: the facts reach the summary for real. */
const summarize: ScriptedTurn = (request) => ({
  text: `Summary: the user said ${userTexts(request.messages).slice(0, -1).join(' / ')}`,
  usage: { inputTokens: 90, outputTokens: 30 },
});

const usage = (inputTokens: number) => ({ usage: { inputTokens, outputTokens: 5 } });

describe('compaction', () => {
  it('summarizes older prompts past the threshold; a fact from the first prompt still reaches the model', async () => {
    const t = await createTestPlatform({
      // Window 1,000 tokens, summarized past half of it; the latest prompt stays whole.
      plugins: [compactionPlugin({ contextWindow: 1_000, threshold: 0.5, keepRecent: 1 })],
      script: [
        reply('Noted.', usage(100)),
        reply('Sunny.', usage(300)),
        reply('Trains run.', usage(600)), // 605 tokens now: past the threshold
        summarize,
        reply('Your cat is called Miso.', usage(200)),
        reply('Still Miso.', usage(260)),
      ],
    });
    const first = await t.send('Remember: my cat is called Miso.');
    await t.send('What is the weather?');
    const third = await t.send('And the trains?');
    const fourth = await t.send('What is my cat called?');

    // The summary call: no tools, the older prompts (all but the latest) and the request to summarize.
    const summaryCall = t.model.requests[3]!;
    expect(summaryCall.tools).toEqual([]);
    expect(userTexts(summaryCall.messages)).toEqual([
      'Remember: my cat is called Miso.',
      'What is the weather?',
      'Summarize the conversation above, as your instructions say.',
    ]);

    // The answer's call: the summary first, then the kept prompt and the new input; not the old prompts.
    const sent = userTexts(t.model.requests[4]!.messages);
    expect(sent[0]).toContain('Summary of the earlier conversation (2 prompts');
    expect(sent[0]).toContain('my cat is called Miso');
    expect(sent.slice(1)).toEqual(['And the trains?', 'What is my cat called?']);

    // Recorded on the prompt that needed the room; the record keeps every prompt.
    const compaction = fourth.output[0] as CompactionOutput;
    expect(compaction).toMatchObject({
      type: 'compaction',
      through: (await t.platform.conversations.prompts(t.conversation.id, t.userId))[1]!.id,
      prompts: 2,
      tokensBefore: expect.any(Number),
      threshold: 500,
    });
    expect(compaction.tokensBefore).toBeGreaterThan(500);
    expect(compaction.summary).toContain('Miso');
    const stored = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(stored.map((p) => p.input)).toEqual([
      first.input,
      'What is the weather?',
      third.input,
      'What is my cat called?',
    ]);
    expect(fourth.state).toBe('completed');
    // The summary call's facts are its own, apart from the prompt's model calls (what its report reads).
    expect(compaction.modelCall?.usage).toMatchObject({ inputTokens: 90, outputTokens: 30 });
    expect(fourth.usage.modelCalls).toBe(1);

    // The next prompt reads the same summary; no new one is needed (the count after it is small).
    await t.send('And again?');
    const next = userTexts(t.model.requests[5]!.messages);
    expect(next[0]).toContain('my cat is called Miso');
    expect(next.slice(1)).toEqual(['And the trains?', 'What is my cat called?', 'And again?']);
    expect(t.model.remaining).toBe(0);
  });

  it('falls back to leaving the older prompts out when the summary call fails, and records why', async () => {
    const t = await createTestPlatform({
      plugins: [
        compactionPlugin({ contextWindows: { 'small-model': 1_000 }, threshold: 0.5, keepRecent: 1 }),
      ],
      models: { normal: 'small-model' },
      script: [
        reply('Noted.', usage(100)),
        reply('Sunny.', usage(300)),
        reply('Trains run.', usage(600)),
        { error: 'The summarizer is down.' },
        reply('I do not know your cat.', usage(200)),
      ],
    });
    for (const input of ['Remember: my cat is called Miso.', 'What is the weather?', 'And the trains?'])
      await t.send(input);
    const fourth = (await t.send('What is my cat called?')) as Prompt;
    expect(fourth.state).toBe('completed');
    expect(fourth.output[0]).toMatchObject({
      type: 'compaction',
      prompts: 2,
      error: expect.stringContaining('The summarizer is down.'),
    });
    expect((fourth.output[0] as CompactionOutput).summary).toBeUndefined();
    const sent = userTexts(t.model.requests[4]!.messages);
    expect(sent).not.toContain('Remember: my cat is called Miso.');
    expect(sent.at(-1)).toBe('What is my cat called?');
  });

  it('summarizes by maxTokens before the history budget, which applies to what the model then reads', async () => {
    const t = await createTestPlatform({
      historyTokens: 500,
      plugins: [compactionPlugin({ contextWindow: 100_000, maxTokens: 500, keepRecent: 1 })],
      script: [
        reply('Noted.', usage(100)),
        reply('Sunny.', usage(300)),
        reply('Trains run.', usage(600)),
        summarize,
        reply('Miso.', usage(200)),
      ],
    });
    for (const input of ['Remember: my cat is called Miso.', 'What is the weather?', 'And the trains?'])
      await t.send(input);
    const fourth = await t.send('What is my cat called?');
    expect(fourth.output[0]).toMatchObject({ type: 'compaction', threshold: 500, prompts: 2 });
    // The summary first, the new input last; in between, what fits the budget (the provider's counts here
    // are far above the estimate, so the budget is tight by its scale): every request fits it.
    const sent = userTexts(t.model.requests[4]!.messages);
    expect(sent[0]).toContain('my cat is called Miso');
    expect(sent.at(-1)).toBe('What is my cat called?');
    for (const request of t.model.requests) expect(estimateTokens(request.messages)).toBeLessThanOrEqual(500);
  });

  it('does nothing below the threshold, or without the option', async () => {
    const t = await createTestPlatform({
      plugins: [compactionPlugin({ contextWindow: 100_000 })],
      script: [reply('One.', usage(100)), reply('Two.', usage(300))],
    });
    await t.send('first');
    const second = await t.send('second');
    expect(second.output.map((o) => o.type)).toEqual(['text']);
    expect(userTexts(t.model.requests[1]!.messages)).toEqual(['first', 'second']);
  });
});
