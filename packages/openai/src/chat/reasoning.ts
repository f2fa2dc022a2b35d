/** One of OpenRouter's `reasoning_details` entries: sent back exactly as the model gave it. */
export type ReasoningDetail = { type?: string; index?: number; text?: string; summary?: string } & Record<
  string,
  unknown
>;

/**
 * What a Chat Completions reasoning keeps for the next request (a reasoning output's `providerData`): the
 * field its text came in, when not `reasoning_content`, and OpenRouter's `reasoning_details`.
 */
export type ChatReasoningData = { field?: 'reasoning'; reasoning_details?: ReasoningDetail[] };

export const isChatReasoningData = (data: unknown): data is ChatReasoningData =>
  typeof data === 'object' &&
  data !== null &&
  !('type' in data) &&
  ('field' in data || Array.isArray((data as ChatReasoningData).reasoning_details));

const PIECEWISE: Record<string, 'text' | 'summary'> = {
  'reasoning.text': 'text',
  'reasoning.summary': 'summary',
};

/**
 * Adds streamed `reasoning_details` to those gathered so far. A stream splits a text or summary block into
 * pieces of the same type and index (the last may add its signature); they are joined back into the one
 * block a whole answer carries. Other blocks (encrypted ones) come whole.
 */
export function mergeReasoningDetails(into: ReasoningDetail[], pieces: readonly ReasoningDetail[]): void {
  for (const piece of pieces) {
    const last = into.at(-1);
    const key = piece.type ? PIECEWISE[piece.type] : undefined;
    if (key && last && last.type === piece.type && last.index === piece.index) {
      const joined = `${(last[key] as string | undefined) ?? ''}${(piece[key] as string | undefined) ?? ''}`;
      for (const [field, value] of Object.entries(piece)) if (value != null) last[field] = value;
      last[key] = joined;
    } else {
      into.push({ ...piece });
    }
  }
}
