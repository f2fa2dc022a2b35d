import { ConflictError, ConversationBusyError, NotFoundError, type PromptRecord } from '@tessera/core';
import type { Row, SqlDriver } from './driver.ts';
import { violates } from './sql/database-errors.ts';
import { extraFields, NOW, toJson, toText } from './sql/values.ts';

/** The fields a prompt's columns hold; any other goes in its `extra` column. */
const KNOWN = [
  'id',
  'conversationId',
  'userId',
  'model',
  'visible',
  'state',
  'input',
  'output',
  'usage',
  'stopReason',
  'metadata',
  'createdAt',
  'updatedAt',
] as const;

/**
 * The start of a statement that creates a prompt: it locks the conversation row (so creates in one
 * conversation queue up), inserts the prompt (the partial unique index refuses a second active one) and its
 * initial outputs, atomically. `conversation` holds the conversation's id, `prompt` the prompt's; both are
 * empty, and nothing is written, when there is no conversation `$2` (of the user `$3` when `owned`).
 * What follows it (a `SELECT`) is the statement's answer, read from the snapshot the statement started in.
 * `options.title`: the parameter holding a title the conversation takes if it has none (null: none).
 */
export const insertingPrompt = (
  s: string,
  options: { owned: boolean; title?: string },
) => `WITH conversation AS (
        UPDATE ${s}.conversations SET updated_at = ${NOW}${options.title ? `, title = coalesce(title, ${options.title}::text)` : ''}
        WHERE id = $2${options.owned ? ' AND user_id = $3' : ''} RETURNING id
      ), prompt AS (
        INSERT INTO ${s}.prompts (id, conversation_id, user_id, model, visible, state, input, usage, stop_reason,
          metadata, extra, output_count, created_at, updated_at, runner)
        SELECT $1, conversation.id, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11::jsonb,
          jsonb_array_length($12::jsonb), $13, $14, CASE WHEN $6 = 'running' THEN $15 END
        FROM conversation RETURNING id
      ), outputs AS (
        INSERT INTO ${s}.prompt_outputs (prompt_id, position, output_id, value)
        SELECT prompt.id, item.ordinality - 1, item.value ->> 'id', item.value
        FROM prompt, jsonb_array_elements($12::jsonb) WITH ORDINALITY AS item (value, ordinality)
      )`;

/** The prompt's active sibling, named in `ConversationBusyError`. */
export const activePrompt = (s: string) =>
  `SELECT id FROM ${s}.prompts WHERE conversation_id = $1 AND state IN ('running', 'waiting_for_approval')`;

/**
 * Runs `statement` (`insertingPrompt` and its answer) for `prompt`, run by `runner`, and returns its rows;
 * the store's errors for a busy conversation, a prompt id taken and a conversation not found (no row).
 * `more`: the answer's own parameters, from `$16` on.
 */
export async function insertPrompt<R extends Row>(
  db: SqlDriver,
  sql: { statement: string; activePrompt: string },
  prompt: PromptRecord,
  runner: string,
  more: readonly unknown[] = [],
): Promise<R[]> {
  let rows: R[];
  try {
    rows = await db.query<R>(sql.statement, [
      prompt.id,
      prompt.conversationId,
      prompt.userId,
      prompt.model,
      prompt.visible,
      prompt.state,
      toText(prompt.input),
      toJson(prompt.usage),
      toJson(prompt.stopReason),
      toJson(prompt.metadata),
      extraFields(prompt, KNOWN),
      toJson(prompt.output),
      prompt.createdAt,
      prompt.updatedAt,
      runner,
      ...more,
    ]);
  } catch (error) {
    if (violates(error, 'prompts_one_active_per_conversation')) {
      const [active] = await db.query<{ id: string }>(sql.activePrompt, [prompt.conversationId]);
      throw new ConversationBusyError(prompt.conversationId, active?.id ?? 'another prompt');
    }
    if (violates(error, 'prompts_pkey')) throw new ConflictError(`Prompt ${prompt.id} already exists.`);
    throw error;
  }
  if (rows.length === 0) throw new NotFoundError(`Conversation ${prompt.conversationId} does not exist.`);
  return rows;
}
