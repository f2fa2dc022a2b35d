/**
 * What this package keeps in a reasoning output's `providerData`: the AI SDK's provider metadata that the
 * provider needs back on the next request, in the provider's own namespace (`{ anthropic: { signature } }`).
 * Marked with `aiSdk`, so that data other providers left in the record (OpenAI's encrypted reasoning) is
 * never sent here, and this package's never to them.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** A reasoning block: its text and, e.g., Anthropic's signature or redacted data, Gemini's thought signature. */
export type ReasoningData = { aiSdk: 'reasoning'; providerMetadata?: ProviderMetadata };

/**
 * The metadata of one tool call (Gemini's thought signature rides on its function call, and Gemini 3
 * refuses a call sent back without it). Tessera's tool outputs have no place for it, so it is recorded as
 * a reasoning output of its own, with no text, beside the call it belongs to.
 */
export type CallData = { aiSdk: 'tool-call'; callId: string; providerMetadata: ProviderMetadata };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Provider metadata that is an object of objects, else undefined (hostile or empty data is dropped). */
export function metadataOf(value: unknown): ProviderMetadata | undefined {
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value).filter(([, inner]) => isObject(inner));
  return entries.length > 0 ? (Object.fromEntries(entries) as ProviderMetadata) : undefined;
}

/** Metadata pieces of one block merged in order, provider by provider (a signature arrives last). */
export function mergeMetadata(
  into: ProviderMetadata | undefined,
  piece: unknown,
): ProviderMetadata | undefined {
  const add = metadataOf(piece);
  if (!add) return into;
  const merged: ProviderMetadata = { ...into };
  for (const [provider, values] of Object.entries(add)) merged[provider] = { ...merged[provider], ...values };
  return merged;
}

export const isReasoningData = (data: unknown): data is ReasoningData =>
  isObject(data) && data.aiSdk === 'reasoning';

export const isCallData = (data: unknown): data is CallData =>
  isObject(data) &&
  data.aiSdk === 'tool-call' &&
  typeof data.callId === 'string' &&
  !!metadataOf(data.providerMetadata);
