import { estimateTokens, type ModelMessage } from '@tessera/core';
import { LRUCache } from 'lru-cache';

type Count = (text: string) => number;
type Encoding = 'o200k_base' | 'cl100k_base';

/** The encoding of OpenAI's models by name (also behind a router's `openai/` prefix); others are unknown. */
export function encodingOf(model: string | undefined): Encoding | undefined {
  const name = model?.replace(/^openai\//, '').toLowerCase();
  if (!name) return undefined;
  if (/^(gpt-5|gpt-4\.1|gpt-4\.5|gpt-4o|chatgpt-4o|o1|o3|o4|gpt-oss)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(name)) return 'cl100k_base';
  return undefined;
}

const counters = new Map<Encoding, Count>();
const loading = new Map<Encoding, Promise<void>>();

/** Texts shorter than this are counted again each time (a lookup costs about as much). */
const CACHED_MIN_CHARS = 64;
/** Texts longer than this are counted again each time (so one text cannot take the whole cache). */
const CACHED_MAX_CHARS = 64 * 1024;
/** The characters of the texts whose counts are kept, per encoding. */
const CACHE_CHARS = 1024 * 1024;

/**
 * `count` remembering its last answers, least recently used out first, bounded in the characters held
 * (1–2 MB of strings at most). A model call counts its whole request, so every round of a conversation counted each
 * earlier message (and the instructions) again: the tokenizer was ~2% of a busy server's CPU.
 */
export function rememberingCounts(count: Count, maxChars = CACHE_CHARS): Count {
  const known = new LRUCache<string, number>({
    maxSize: maxChars,
    maxEntrySize: Math.min(CACHED_MAX_CHARS, maxChars),
    sizeCalculation: (_tokens, text) => text.length,
  });
  return (text) => {
    if (text.length < CACHED_MIN_CHARS) return count(text);
    const hit = known.get(text);
    if (hit !== undefined) return hit;
    const tokens = count(text);
    known.set(text, tokens); // a text over maxEntrySize is not kept
    return tokens;
  };
}

/**
 * Loads an encoding in the background (its tables are megabytes: loaded only for a model that uses it, and
 * never on the import of this package). Until it is loaded, estimates count four characters a token.
 */
function load(encoding: Encoding): void {
  if (loading.has(encoding)) return;
  const module =
    encoding === 'o200k_base'
      ? import('gpt-tokenizer/encoding/o200k_base')
      : import('gpt-tokenizer/encoding/cl100k_base');
  loading.set(
    encoding,
    module.then(
      (loaded) => {
        counters.set(
          encoding,
          rememberingCounts((text) => loaded.countTokens(text)),
        );
      },
      () => {}, // no tokenizer: the default estimate stays
    ),
  );
}

/** Waits for the encoding of `model` to be loaded, for callers that want exact counts from the first call. */
export async function tokenizerReady(model: string): Promise<boolean> {
  const encoding = encodingOf(model);
  if (!encoding) return false;
  load(encoding);
  await loading.get(encoding);
  return counters.has(encoding);
}

/**
 * Tokens of messages as `model` counts them: the model's own encoding for OpenAI's models, plus a few tokens
 * per message for the chat format; for other models (or before the encoding is loaded), core's estimate.
 */
export function estimateOpenAITokens(messages: readonly ModelMessage[], model?: string): number {
  const encoding = encodingOf(model);
  if (!encoding) return estimateTokens(messages);
  const count = counters.get(encoding);
  if (!count) {
    load(encoding);
    return estimateTokens(messages);
  }
  let tokens = 0;
  for (const message of messages) {
    tokens += 4; // the message's role and separators
    switch (message.type) {
      case 'message':
        tokens += count(message.content);
        break;
      case 'function_call':
        tokens += count(message.name) + count(message.arguments);
        break;
      case 'function_call_output':
        tokens += count(message.output);
        break;
      case 'reasoning':
        tokens += count(`${message.summary ?? ''}${message.text ?? ''}`);
        break;
    }
  }
  return tokens;
}
