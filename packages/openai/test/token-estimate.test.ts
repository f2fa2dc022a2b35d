import { estimateTokens, type ModelMessage } from '@tessera/core';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createOpenAIProvider, encodingOf, estimateOpenAITokens, tokenizerReady } from '../src/index.ts';

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
    const provider = createOpenAIProvider({ apiKey: 'test' });
    expect(provider.estimateTokens?.(messages, 'gpt-5')).toBe(exact);
    expect(estimateOpenAITokens(messages, 'llama-3.1-70b')).toBe(estimateTokens(messages));
    expect(estimateOpenAITokens(messages)).toBe(estimateTokens(messages));
  });
});
