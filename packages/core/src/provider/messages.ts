/**
 * Provider-neutral messages: what `promptsToMessages()` produces and what a `ModelProvider` translates into
 * its wire format. Shaped after the Responses API input items, which map one-to-one onto Chat Completions.
 */
export type ModelMessage =
  | { type: 'message'; role: 'user' | 'assistant'; content: string }
  | { type: 'function_call'; callId: string; name: string; arguments: string }
  | { type: 'function_call_output'; callId: string; output: string }
  /** An opaque reasoning item from the provider that produced it; other providers drop it. */
  | { type: 'reasoning'; summary?: string; providerData?: unknown };

export const userMessage = (content: string): ModelMessage => ({ type: 'message', role: 'user', content });
export const assistantMessage = (content: string): ModelMessage => ({
  type: 'message',
  role: 'assistant',
  content,
});
