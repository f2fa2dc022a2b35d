import { ConflictError, type MessageStore, NotFoundError, type QueuedMessage } from '@tessera/core';
import type { Row, SqlDriver } from './driver.ts';
import { violates } from './sql/database-errors.ts';
import { toIso, toJson, toText } from './sql/values.ts';

type MessageRow = Row & {
  id: string;
  conversation_id: string;
  user_id: string;
  mode: QueuedMessage['mode'];
  input: string;
  model: QueuedMessage['model'] | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
};

/** PostgreSQL's SQLSTATE for a foreign key violation: the message's conversation does not exist. */
const FOREIGN_KEY_VIOLATION = '23503';

function queries(s: string) {
  return {
    add: `INSERT INTO ${s}.messages (id, conversation_id, user_id, mode, input, model, metadata, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    list: `SELECT id, conversation_id, user_id, mode, input, model, metadata, created_at FROM ${s}.messages
      WHERE conversation_id = $1 ORDER BY seq`,
    // One statement: of two processes removing the same message, exactly one gets its id back.
    remove: `DELETE FROM ${s}.messages WHERE conversation_id = $1 AND id = ANY($2::text[]) RETURNING id, seq`,
    // Not those with a prompt running or waiting (its end starts their next message): the periodic recovery
    // asks every few seconds, and a prompt may wait for its approval for ever (the partial unique index on
    // active prompts answers the NOT EXISTS).
    conversations: `SELECT DISTINCT m.conversation_id FROM ${s}.messages m WHERE NOT EXISTS (
      SELECT 1 FROM ${s}.prompts p
      WHERE p.conversation_id = m.conversation_id AND p.state IN ('running', 'waiting_for_approval'))`,
  };
}

const toMessage = (row: MessageRow): QueuedMessage => ({
  id: row.id,
  conversationId: row.conversation_id,
  userId: row.user_id,
  mode: row.mode,
  input: row.input,
  ...(row.model !== null && { model: row.model }),
  ...(row.metadata !== null && { metadata: row.metadata }),
  createdAt: toIso(row.created_at),
});

/** Waiting messages as rows, in the order they were added (`seq`), shared by every process on the database. */
export function messageStore(db: SqlDriver, schema: string): MessageStore {
  const sql = queries(schema);
  return {
    async add(message) {
      try {
        await db.query(sql.add, [
          message.id,
          message.conversationId,
          message.userId,
          message.mode,
          toText(message.input),
          message.model ?? null,
          message.metadata === undefined ? null : toJson(message.metadata),
          message.createdAt,
        ]);
      } catch (error) {
        if (violates(error, 'messages_pkey'))
          throw new ConflictError(`Message ${message.id} already exists.`);
        if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION)
          throw new NotFoundError(`Conversation ${message.conversationId} does not exist.`);
        throw error;
      }
    },
    async list(conversationId) {
      return (await db.query<MessageRow>(sql.list, [conversationId])).map(toMessage);
    },
    async remove(conversationId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.query<{ id: string; seq: string | number }>(sql.remove, [
        conversationId,
        [...ids],
      ]);
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((row) => row.id);
    },
    async conversationsWithMessages() {
      return (await db.query<{ conversation_id: string }>(sql.conversations)).map((r) => r.conversation_id);
    },
  };
}
