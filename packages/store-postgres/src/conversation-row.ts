import type { Conversation } from '@tessera/core';
import type { Row } from './driver.ts';
import { toIso } from './sql/values.ts';

/** A conversation's row as the statements read it: its columns, its prompt ids and its plugins' states. */
export type ConversationRow = Row & {
  id: string;
  user_id: string;
  title: string | null;
  extra: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  /** Null in a page's rows past its budget of prompt ids (`pageOf`). */
  prompt_ids: string[] | null;
  plugin_state: Record<string, unknown> | null;
  fork_source: string | null;
  fork_prompt: string | null;
  fork_root: string | null;
};

/** The conversation a row holds. */
export function toConversation(row: ConversationRow): Conversation {
  return {
    ...row.extra,
    id: row.id,
    userId: row.user_id,
    ...(row.title !== null && { title: row.title }),
    promptIds: row.prompt_ids ?? [],
    pluginState: row.plugin_state ?? {},
    ...(row.fork_source !== null && {
      forkOf: { conversationId: row.fork_source, promptId: row.fork_prompt!, rootId: row.fork_root! },
    }),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
