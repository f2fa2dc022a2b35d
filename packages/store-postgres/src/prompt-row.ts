import type { PromptRecord, PromptState } from '@tessera/core';
import type { Row } from './driver.ts';
import { toIso } from './sql/values.ts';

/** A prompt's row as the statements read it (`promptColumns`). */
export type PromptRow = Row & {
  id: string;
  conversation_id: string;
  user_id: string;
  model: PromptRecord['model'];
  visible: boolean;
  state: PromptState;
  input: string | null;
  usage: PromptRecord['usage'];
  stop_reason: PromptRecord['stopReason'] | null;
  metadata: PromptRecord['metadata'] | null;
  extra: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  output: PromptRecord['output'];
};

/**
 * A prompt's columns (`PromptRow`) from `prompts p`, with its output array rebuilt from its output rows in
 * order (one index range per prompt).
 */
export const promptColumns = (s: string) => `p.id, p.conversation_id, p.user_id, p.model, p.visible, p.state,
      p.input, p.usage, p.stop_reason, p.metadata, p.extra, p.created_at, p.updated_at,
      coalesce((SELECT json_agg(o.value ORDER BY o.position) FROM ${s}.prompt_outputs o WHERE o.prompt_id = p.id),
        '[]') AS output`;

/**
 * `promptColumns`, with the row's version (`xmin`) and, for a prompt whose id maps to that version in the
 * `jsonb` object `known` gives (a `HistoryRead`'s keys), no outputs (`NULL`): the reader has them.
 */
export const knownPromptColumns = (s: string, known: string) => `p.id, p.conversation_id, p.user_id, p.model,
      p.visible, p.state, p.input, p.usage, p.stop_reason, p.metadata, p.extra, p.created_at, p.updated_at,
      p.xmin::text AS version,
      CASE WHEN ${known} ->> p.id = p.xmin::text THEN NULL
        ELSE coalesce((SELECT json_agg(o.value ORDER BY o.position) FROM ${s}.prompt_outputs o
          WHERE o.prompt_id = p.id), '[]') END AS output`;

/** The prompt a row holds. */
export function toPrompt(row: PromptRow): PromptRecord {
  return {
    ...row.extra,
    id: row.id,
    conversationId: row.conversation_id,
    userId: row.user_id,
    model: row.model,
    visible: row.visible,
    state: row.state,
    ...(row.input !== null && { input: row.input }),
    output: row.output,
    usage: row.usage,
    ...(row.stop_reason !== null && { stopReason: row.stop_reason }),
    ...(row.metadata !== null && { metadata: row.metadata }),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
