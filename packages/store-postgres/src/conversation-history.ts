import type { Conversation, ConversationStore, PromptRecord, PromptStore } from '@tessera/core';
import { type ConversationRow, toConversation } from './conversation-row.ts';
import type { SqlDriver } from './driver.ts';
import type { HistoryCache, HistoryRead } from './history-cache.ts';
import { activePrompt, insertingPrompt, insertPrompt } from './prompt-insert.ts';
import { knownPromptColumns, type PromptRow, toPrompt } from './prompt-row.ts';
import { historyPrompts } from './sql/history.ts';
import { toText } from './sql/values.ts';

/**
 * A row of `withHistory`: the conversation's columns (prefixed `c_`), and one prompt of its history (with
 * its row's version; its `output` is `null` when the read knew it at that version) or none.
 */
type Row = PromptRow & {
  version: string;
  c_id: string;
  c_user_id: string;
  c_title: string | null;
  c_extra: Record<string, unknown> | null;
  c_created_at: Date;
  c_updated_at: Date;
  c_fork_source: string | null;
  c_fork_prompt: string | null;
  c_fork_root: string | null;
  c_plugin_state: Record<string, unknown>;
};

/**
 * The conversation `c` with its history: a row per prompt of the history, in order (the conversation's
 * columns on each), or one row with no prompt for a conversation without any. Its prompt ids are the
 * history's, so they are not aggregated a second time; its plugin state is aggregated once, not per row.
 * `from`: the `FROM` giving `c`; `where`: its condition; `known`: the parameter with the `HistoryRead` keys
 * of prompts whose outputs are left out.
 */
const withHistory = (
  s: string,
  known: string,
  from: string,
  where = 'true',
) => `SELECT c.id AS c_id, c.user_id AS c_user_id,
    c.title AS c_title, c.extra AS c_extra, c.created_at AS c_created_at, c.updated_at AS c_updated_at,
    c.fork_source AS c_fork_source, c.fork_prompt AS c_fork_prompt, c.fork_root AS c_fork_root,
    plugin.c_plugin_state, h.*
  ${from}
  CROSS JOIN LATERAL (
    SELECT coalesce(jsonb_object_agg(ps.plugin_id, ps.state) FILTER (WHERE ps.state IS NOT NULL), '{}')
      AS c_plugin_state
    FROM ${s}.plugin_states ps WHERE ps.conversation_id = c.id
  ) plugin
  LEFT JOIN LATERAL (${historyPrompts(s, 'c.id', knownPromptColumns(s, known))}) h ON true
  WHERE ${where}
  ORDER BY h.part, h.ord`;

/** The conversation and history that `withHistory`'s rows hold (read as `read`), or `undefined` for no row. */
function toConversationWithHistory(rows: Row[], read: HistoryRead) {
  const [first] = rows;
  if (!first) return undefined;
  const history: PromptRecord[] = read.settle(first.id === null ? [] : rows, toPrompt);
  const conversation: Conversation = toConversation({
    id: first.c_id,
    user_id: first.c_user_id,
    title: first.c_title,
    extra: first.c_extra,
    created_at: first.c_created_at,
    updated_at: first.c_updated_at,
    fork_source: first.c_fork_source,
    fork_prompt: first.c_fork_prompt,
    fork_root: first.c_fork_root,
    plugin_state: first.c_plugin_state,
    prompt_ids: history.map((prompt) => prompt.id),
  } as ConversationRow);
  return { conversation, history };
}

/** `ConversationStore.getWithHistory`: what starting a prompt reads, in one round trip (only `$2`'s conversation). */
export function conversationWithHistory(
  db: SqlDriver,
  schema: string,
  cache: HistoryCache,
): NonNullable<ConversationStore['getWithHistory']> {
  const sql = withHistory(
    schema,
    '$3::jsonb',
    `FROM ${schema}.conversations c`,
    'c.id = $1 AND c.user_id = $2',
  );
  return async (id, userId) => {
    const read = cache.read(id);
    return toConversationWithHistory(await db.query<Row>(sql, [id, userId, read.keys()]), read);
  };
}

/**
 * `PromptStore.createWithHistory`: the prompt's creation and its conversation's read in one statement. The
 * read is in the statement's snapshot, from before the prompt was inserted: the conversation and history as
 * they were just before. A prompt created in the conversation after that snapshot is still active when this
 * statement gets the conversation's row lock (unless it ended within those microseconds; a read before the
 * create, as without this, leaves a round trip), so the partial unique index refuses this one as busy.
 */
export function promptWithHistory(
  db: SqlDriver,
  schema: string,
  runner: string,
  cache: HistoryCache,
): NonNullable<PromptStore['createWithHistory']> {
  const from = `FROM conversation u JOIN ${schema}.conversations c ON c.id = u.id`;
  const sql = {
    statement: `${insertingPrompt(schema, { owned: true, title: '$17' })}
      ${withHistory(schema, '$16::jsonb', from)}`,
    activePrompt: activePrompt(schema),
  };
  return async (prompt, options) => {
    const read = cache.read(prompt.conversationId);
    const rows = await insertPrompt<Row>(db, sql, prompt, runner, [read.keys(), toText(options?.title)]);
    return toConversationWithHistory(rows, read)!;
  };
}
