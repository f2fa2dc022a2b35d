import { estimateTokens, type ModelMessage } from '@tessera/core';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createOpenAIProvider, encodingOf, estimateOpenAITokens, tokenizerReady } from '../src/index.ts';
import { rememberingCounts } from '../src/token-estimate.ts';

const messages: ModelMessage[] = [
  { type: 'message', role: 'user', content: 'Wie heißt meine Katze? 我的猫叫什么名字？' },
  { type: 'function_call', callId: 'c1', name: 'pets.lookup', arguments: '{"owner":"ada","species":"cat"}' },
  { type: 'function_call_output', callId: 'c1', output: '{"name":"Miso","age":4}' },
];

describe('token estimates', () => {
  it("counts OpenAI's models with their encoding, and others about four characters a token", async () => {
    expect(encodingOf('gpt-5-mini')).toBe('o200k_base');
    expect(encodingOf('openai/gpt-4o')).toBe('o200k_base');
    expect(encodingOf('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingOf('llama-3.1-70b')).toBeUndefined();

    expect(await tokenizerReady('gpt-5')).toBe(true);
    const exact =
      encode(messages[0]!.type === 'message' ? messages[0]!.content : '').length +
      encode('pets.lookup').length +
      encode('{"owner":"ada","species":"cat"}').length +
      encode('{"name":"Miso","age":4}').length +
      3 * 4;
    const provider = createOpenAIProvider({ apiKey: 'test', exactTokenCounts: true });
    expect(provider.estimateTokens?.(messages, 'gpt-5')).toBe(exact);
    expect(estimateOpenAITokens(messages, 'llama-3.1-70b')).toBe(estimateTokens(messages));
    expect(estimateOpenAITokens(messages)).toBe(estimateTokens(messages));
  });

  it("leaves counting to core's estimate unless exact counts are asked for (the encoding's tables are ~30 MB)", () => {
    expect(createOpenAIProvider({ apiKey: 'test' }).estimateTokens).toBeUndefined();
    expect(createOpenAIProvider({ apiKey: 'test', exactTokenCounts: false }).estimateTokens).toBeUndefined();
  });
});

describe('remembered counts', () => {
  it('counts a long text once while it is among the most recent, and holds no more characters than its bound', () => {
    const counted: string[] = [];
    const count = rememberingCounts((text) => {
      counted.push(text);
      return text.length;
    }, 300);
    const [a, b, c] = ['a', 'b', 'c'].map((letter) => letter.repeat(100));
    expect([count(a!), count(b!), count(a!), count(a!)]).toEqual([100, 100, 100, 100]);
    expect(counted).toEqual([a, b]);
    // A fourth text over the bound pushes out the least recently used one (b), which is counted again.
    count(c!);
    count('d'.repeat(100));
    count(a!);
    count(b!);
    expect(counted).toEqual([a, b, c, 'd'.repeat(100), b]);
    // Short texts are not kept: counted each time.
    count('short');
    count('short');
    expect(counted.filter((text) => text === 'short')).toHaveLength(2);
  });
});
