/**
 * Provider-neutral messages: what `promptsToMessages()` produces and what a `ModelProvider` translates into
 * its wire format. Shaped after the Responses API input items, which map one-to-one onto Chat Completions.
 * The model's own items carry the `responseId` of the answer they came from; the items of one answer come
 * in the order the model streamed them, followed by the outputs of its calls, so a provider can send them
 * back as one assistant turn (for Chat Completions, one assistant message with its text and tool calls).
 */
export type ModelMessage =
  | { type: 'message'; role: 'user' | 'assistant'; content: string; responseId?: string }
  | { type: 'function_call'; callId: string; name: string; arguments: string; responseId?: string }
  | { type: 'function_call_output'; callId: string; output: string }
  /** Reasoning: its summary or raw text, and the provider's own data, which other providers drop. */
  | { type: 'reasoning'; summary?: string; text?: string; providerData?: unknown; responseId?: string };

export const userMessage = (content: string): ModelMessage => ({ type: 'message', role: 'user', content });
export const assistantMessage = (content: string): ModelMessage => ({
  type: 'message',
  role: 'assistant',
  content,
});
