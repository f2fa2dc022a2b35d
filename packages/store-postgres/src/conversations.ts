import {
  ConflictError,
  type Conversation,
  type ConversationStore,
  NotFoundError,
  PAGE_PROMPT_IDS,
  type Page,
  type PageOptions,
  type SearchHit,
  searchCursor,
  searchPage,
  searchSnippet,
  searchTerms,
} from '@tessera/core';
import { conversationWithHistory } from './conversation-history.ts';
import { type ConversationRow, toConversation } from './conversation-row.ts';
import type { Row, SqlDriver } from './driver.ts';
import type { HistoryCache } from './history-cache.ts';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor } from './sql/cursor.ts';
import { violates } from './sql/database-errors.ts';
import { history } from './sql/history.ts';
import { extraFields, NOW, toJson, toText } from './sql/values.ts';

const KNOWN = [
  'id',
  'userId',
  'title',
  'promptIds',
  'pluginState',
  'forkOf',
  'createdAt',
  'updatedAt',
] as const;

type SearchRow = Row & {
  conversation_id: string;
  prompt_id: string | null;
  field: SearchHit['field'];
  text: string;
  title: string | null;
};

/**
 * How many bytes of a user's newest inputs a search matches by default: matching costs ~0.1-0.2 s a MB in
 * PGlite (measured: 4 MiB of 9,500-character inputs, 0.8 s on a loaded machine; 38 MB took 12 s), less on a
 * server. Titles are always all searched.
 */
export const DEFAULT_SEARCH_BYTES = 4 * 1024 * 1024;

function queries(s: string) {
  // A conversation is assembled from its row, its prompts' ids (in order) and its plugin state rows.
  const select = `SELECT c.id, c.user_id, c.title, c.extra, c.created_at, c.updated_at, c.fork_source,
      c.fork_prompt, c.fork_root,
      (SELECT coalesce(json_agg(h.id ORDER BY h.part, h.ord), '[]') FROM (${history(s, 'c.id')}) h) AS prompt_ids,
      (SELECT coalesce(jsonb_object_agg(ps.plugin_id, ps.state) FILTER (WHERE ps.state IS NOT NULL), '{}')
        FROM ${s}.plugin_states ps WHERE ps.conversation_id = c.id) AS plugin_state
    FROM ${s}.conversations c`;
  // A page of conversations (`where` over `c`, ordered and cut at `limit`), within `budget` prompt ids in
  // all (PAGE_PROMPT_IDS): each conversation in turn counts its history up to what is left, stopping at the
  // first it would pass, so the page reads at most about `budget` ids however many its conversations hold.
  // The rows after that one come without their ids or states: they only say the page was cut.
  const page = (where: string, limit: string, budget: string) => `WITH RECURSIVE page AS MATERIALIZED (
        SELECT c.id, row_number() OVER (ORDER BY c.updated_at DESC, c.id DESC) AS n
        FROM ${s}.conversations c WHERE ${where}
        ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit}
      ), budget (n, ids_left) AS (
        SELECT 0::bigint, ${budget}::bigint
        UNION ALL
        SELECT page.n, budget.ids_left - (SELECT count(*) FROM (
            SELECT 1 FROM (${history(s, 'page.id')}) h LIMIT budget.ids_left + 1) counted)
        FROM budget JOIN page ON page.n = budget.n + 1 WHERE budget.ids_left >= 0
      ), kept AS (
        SELECT page.id, page.n, page.n = 1 OR coalesce(budget.ids_left >= 0, false) AS whole
        FROM page LEFT JOIN budget ON budget.n = page.n
      )
      SELECT c.id, c.user_id, c.title, c.extra, c.created_at, c.updated_at, c.fork_source, c.fork_prompt,
        c.fork_root,
        CASE WHEN kept.whole THEN (SELECT coalesce(json_agg(h.id ORDER BY h.part, h.ord), '[]')
          FROM (${history(s, 'c.id')}) h) END AS prompt_ids,
        CASE WHEN kept.whole THEN (SELECT coalesce(jsonb_object_agg(ps.plugin_id, ps.state)
          FILTER (WHERE ps.state IS NOT NULL), '{}') FROM ${s}.plugin_states ps WHERE ps.conversation_id = c.id)
        END AS plugin_state
      FROM kept JOIN ${s}.conversations c ON c.id = kept.id ORDER BY kept.n`;
  return {
    create: `WITH conversation AS (
        INSERT INTO ${s}.conversations (id, user_id, title, extra, created_at, updated_at)
        VALUES ($1, $2, $3, $4::jsonb, $5, $6) RETURNING id
      )
      INSERT INTO ${s}.plugin_states (conversation_id, plugin_id, state, updated_at)
      SELECT conversation.id, entry.key, entry.value, ${NOW}
      FROM conversation, jsonb_each($7::jsonb) AS entry`,
    get: `${select} WHERE c.id = $1`,
    listByUser: page(
      'c.user_id = $1 AND ($2::timestamptz IS NULL OR (c.updated_at, c.id) < ($2::timestamptz, $3::text))',
      '$4',
      '$5',
    ),
    // Every matching text of the user's, in the order of `ConversationStore.search`: a title, then each
    // visible prompt's input and text outputs; $2 holds words only. Bounded by construction, as neither a
    // timeout (PGlite has none) nor the indexes bound it for a user who stored gigabytes: only the user's
    // newest visible prompts are candidates, up to $5 bytes of their inputs (octet_length reads a stored
    // value's size from its header, decompressing nothing), and the hits are ordered and paged by their keys
    // before any text is read, so a page reads the texts it shows.
    search: `WITH q AS (SELECT plainto_tsquery('simple', $2) AS q),
      recent AS MATERIALIZED (
        SELECT r.id FROM (
          SELECT p.id, sum(coalesce(octet_length(p.input), 0)) OVER (ORDER BY p.seq DESC) AS upto
          FROM ${s}.prompts p WHERE p.user_id = $1 AND p.visible
        ) r WHERE r.upto <= $5
      ),
      hits AS (
        SELECT c.id AS conversation_id, NULL::text AS prompt_id, 'title' AS field, 0 AS part, 0::bigint AS ord,
            -1 AS position, c.updated_at
          FROM ${s}.conversations c, q
          WHERE c.user_id = $1 AND to_tsvector('simple', coalesce(c.title, '')) @@ q.q
        UNION ALL
        SELECT x.conversation_id, p.id, 'input', 1, x.position::bigint, -1, c.updated_at
          FROM recent r JOIN ${s}.prompts p ON p.id = r.id JOIN ${s}.shared_prompts x ON x.prompt_id = p.id
            JOIN ${s}.conversations c ON c.id = x.conversation_id, q
          WHERE to_tsvector('simple', coalesce(p.input, '')) @@ q.q
        UNION ALL
        SELECT p.conversation_id, p.id, 'input', 2, p.seq, -1, c.updated_at
          FROM recent r JOIN ${s}.prompts p ON p.id = r.id JOIN ${s}.conversations c ON c.id = p.conversation_id, q
          WHERE to_tsvector('simple', coalesce(p.input, '')) @@ q.q
        UNION ALL
        SELECT x.conversation_id, p.id, 'output', 1, x.position::bigint, o.position, c.updated_at
          FROM recent r JOIN ${s}.prompt_outputs o ON o.prompt_id = r.id JOIN ${s}.prompts p ON p.id = r.id
            JOIN ${s}.shared_prompts x ON x.prompt_id = p.id JOIN ${s}.conversations c ON c.id = x.conversation_id, q
          WHERE o.value->>'type' = 'text' AND to_tsvector('simple', coalesce(o.value->>'text', '')) @@ q.q
        UNION ALL
        SELECT p.conversation_id, p.id, 'output', 2, p.seq, o.position, c.updated_at
          FROM recent r JOIN ${s}.prompt_outputs o ON o.prompt_id = r.id JOIN ${s}.prompts p ON p.id = r.id
            JOIN ${s}.conversations c ON c.id = p.conversation_id, q
          WHERE o.value->>'type' = 'text' AND to_tsvector('simple', coalesce(o.value->>'text', '')) @@ q.q
      ),
      page AS (
        SELECT * FROM hits ORDER BY updated_at DESC, conversation_id DESC, part, ord, position OFFSET $3 LIMIT $4
      )
      SELECT page.conversation_id, page.prompt_id, page.field, c.title,
          CASE page.field
            WHEN 'title' THEN c.title
            WHEN 'input' THEN (SELECT p.input FROM ${s}.prompts p WHERE p.id = page.prompt_id)
            ELSE (SELECT o.value->>'text' FROM ${s}.prompt_outputs o
              WHERE o.prompt_id = page.prompt_id AND o.position = page.position)
          END AS text
        FROM page JOIN ${s}.conversations c ON c.id = page.conversation_id
        ORDER BY page.updated_at DESC, page.conversation_id DESC, page.part, page.ord, page.position`,
    // Taken first, in the deletion's transaction: a prompt being created in it, or a fork of it being made,
    // finishes before the deletion reads what to delete.
    lock: `SELECT id FROM ${s}.conversations WHERE id = $1 FOR UPDATE`,
    // Its own prompts and the ones it shares go, but for those another history holds: shared by another
    // fork, or owned by a conversation that is still there. Its shared rows go first (explicitly, in this
    // statement), so that no reference of its own keeps a prompt.
    delete: `WITH candidates AS (
        SELECT p.id, p.conversation_id FROM ${s}.prompts p WHERE p.conversation_id = $1
        UNION
        SELECT p.id, p.conversation_id FROM ${s}.shared_prompts x JOIN ${s}.prompts p ON p.id = x.prompt_id
          WHERE x.conversation_id = $1
      ), unshared AS (
        DELETE FROM ${s}.shared_prompts WHERE conversation_id = $1
      ), doomed AS (
        DELETE FROM ${s}.prompts p USING candidates d
        WHERE p.id = d.id
          AND NOT EXISTS (SELECT 1 FROM ${s}.shared_prompts x WHERE x.prompt_id = d.id AND x.conversation_id <> $1)
          AND (d.conversation_id = $1 OR NOT EXISTS (SELECT 1 FROM ${s}.conversations o WHERE o.id = d.conversation_id))
      )
      DELETE FROM ${s}.conversations WHERE id = $1 RETURNING id`,
    // One statement: the source (locked against a deletion until this commits), its history up to the fork
    // prompt, the new conversation, its shared rows and a copy of the source's plugin state rows.
    fork: `WITH source AS (
        SELECT c.id, coalesce(c.fork_root, c.id) AS root FROM ${s}.conversations c
        WHERE c.id = $2 AND c.user_id = $3 FOR SHARE
      ), numbered AS (
        SELECT h.id, (row_number() OVER (ORDER BY h.part, h.ord) - 1)::integer AS position
        FROM (${history(s, '$2')}) h
      ), point AS (
        SELECT n.position FROM numbered n, source WHERE n.id = $4
      ), conversation AS (
        INSERT INTO ${s}.conversations (id, user_id, title, created_at, updated_at, fork_source, fork_prompt,
          fork_root)
        SELECT $1, $3, $5, $6, $7, source.id, $4, source.root FROM source, point
        RETURNING id
      ), shared AS (
        INSERT INTO ${s}.shared_prompts (conversation_id, position, prompt_id)
        SELECT conversation.id, n.position, n.id FROM conversation, numbered n, point WHERE n.position < point.position
      ), states AS (
        INSERT INTO ${s}.plugin_states (conversation_id, plugin_id, state, updated_at)
        SELECT conversation.id, ps.plugin_id, ps.state, ${NOW}
        FROM conversation, ${s}.plugin_states ps WHERE ps.conversation_id = $2
      )
      SELECT (SELECT id FROM source) AS source, (SELECT id FROM conversation) AS created`,
    listBranches: page(
      `c.user_id = $1 AND (c.id = $2 OR c.fork_root = $2)
        AND ($3::timestamptz IS NULL OR (c.updated_at, c.id) < ($3::timestamptz, $4::text))`,
      '$5',
      '$6',
    ),
    // Counts through the indexes alone (conversations_by_user; the primary key and conversations_by_root),
    // reading nothing a conversation holds.
    countByUser: `SELECT count(*)::integer AS count FROM ${s}.conversations WHERE user_id = $1`,
    countBranches: `SELECT count(*)::integer AS count FROM ${s}.conversations
      WHERE user_id = $1 AND (id = $2 OR fork_root = $2)`,
    rename: `UPDATE ${s}.conversations SET title = $2 WHERE id = $1 RETURNING id`,
    // Touches the conversation (which also proves it exists) and writes the one plugin's row, in one statement.
    setPluginState: `WITH conversation AS (
        UPDATE ${s}.conversations SET updated_at = ${NOW} WHERE id = $1 RETURNING id
      )
      INSERT INTO ${s}.plugin_states (conversation_id, plugin_id, state, updated_at)
      SELECT conversation.id, $2, $3::jsonb, ${NOW} FROM conversation
      ON CONFLICT (conversation_id, plugin_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at
      RETURNING conversation_id`,
  };
}

export function conversationStore(
  db: SqlDriver,
  schema: string,
  histories: HistoryCache,
  searchBytes: number = DEFAULT_SEARCH_BYTES,
  pagePromptIds: number = PAGE_PROMPT_IDS,
): ConversationStore {
  const sql = queries(schema);
  return {
    ...forks(db, sql, pagePromptIds),
    getWithHistory: conversationWithHistory(db, schema, histories),
    async create(conversation) {
      try {
        await db.query(sql.create, [
          conversation.id,
          conversation.userId,
          toText(conversation.title),
          extraFields(conversation, KNOWN),
          conversation.createdAt,
          conversation.updatedAt,
          toJson(conversation.pluginState ?? {}),
        ]);
      } catch (error) {
        if (violates(error, 'conversations_pkey')) {
          throw new ConflictError(`Conversation ${conversation.id} already exists.`);
        }
        throw error;
      }
    },
    async get(id) {
      const [row] = await db.query<ConversationRow>(sql.get, [id]);
      return row && toConversation(row);
    },
    async listByUser(userId, options: PageOptions = {}): Promise<Page<Conversation>> {
      return pageOf(options, (after, limit) =>
        db.query<ConversationRow>(sql.listByUser, [userId, ...after, limit, pagePromptIds]),
      );
    },
    async countByUser(userId, options) {
      const [row] = options?.rootId
        ? await db.query<Row & { count: number }>(sql.countBranches, [userId, options.rootId])
        : await db.query<Row & { count: number }>(sql.countByUser, [userId]);
      return row?.count ?? 0;
    },
    async search(userId, query, options): Promise<Page<SearchHit>> {
      const terms = searchTerms(query);
      const { limit, offset } = searchPage(options);
      if (terms.length === 0) return { items: [] };
      const rows = await db.query<SearchRow>(sql.search, [
        userId,
        terms.join(' '),
        offset,
        limit + 1,
        searchBytes,
      ]);
      const items = rows.slice(0, limit).map(
        (row): SearchHit => ({
          conversationId: row.conversation_id,
          ...(row.prompt_id !== null && { promptId: row.prompt_id }),
          ...(row.title !== null && { title: row.title }),
          field: row.field,
          snippet: searchSnippet(row.text, terms),
        }),
      );
      const cursor = rows.length > limit ? searchCursor(offset, limit) : undefined;
      return cursor === undefined ? { items } : { items, nextCursor: cursor };
    },
    async delete(id) {
      return db.transaction(async (tx) => {
        await tx.query(sql.lock, [id]);
        return (await tx.query(sql.delete, [id])).length > 0;
      });
    },
    async rename(id, title) {
      const renamed = await db.query(sql.rename, [id, toText(title)]);
      if (renamed.length === 0) throw new NotFoundError(`Conversation ${id} does not exist.`);
    },
    async setPluginState(id, pluginId, state) {
      const written = await db.query(sql.setPluginState, [id, pluginId, toJson(state)]);
      if (written.length === 0) throw new NotFoundError(`Conversation ${id} does not exist.`);
    },
  };
}

/** `fork` and `listBranches`: a fork shares its source's history through rows of `shared_prompts`. */
function forks(
  db: SqlDriver,
  sql: ReturnType<typeof queries>,
  pagePromptIds: number,
): Required<Pick<ConversationStore, 'fork' | 'listBranches'>> {
  return {
    async fork(fork) {
      const { conversationId, promptId } = fork.forkOf;
      let row: { source: string | null; created: string | null } | undefined;
      try {
        [row] = await db.query<Row & { source: string | null; created: string | null }>(sql.fork, [
          fork.id,
          conversationId,
          fork.userId,
          promptId,
          toText(fork.title),
          fork.createdAt,
          fork.updatedAt,
        ]);
      } catch (error) {
        if (violates(error, 'conversations_pkey'))
          throw new ConflictError(`Conversation ${fork.id} already exists.`);
        throw error;
      }
      if (!row?.source) throw new NotFoundError(`Conversation ${conversationId} does not exist.`);
      if (!row.created) throw new NotFoundError(`Conversation ${conversationId} has no prompt ${promptId}.`);
      const [created] = await db.query<ConversationRow>(sql.get, [fork.id]);
      return toConversation(created!);
    },
    listBranches: (userId, rootId, options = {}) =>
      pageOf(options, (after, limit) =>
        db.query<ConversationRow>(sql.listBranches, [userId, rootId, ...after, limit, pagePromptIds]),
      ),
  };
}

/** A keyset page of conversations, newest first: `read` gets the cursor's (updated_at, id) and the limit + 1. */
async function pageOf(
  options: PageOptions,
  read: (after: [string | null, string | null], limit: number) => Promise<ConversationRow[]>,
): Promise<Page<Conversation>> {
  const after = decodeCursor(options.cursor, 2);
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  const rows = await read([after?.[0] ?? null, after?.[1] ?? null], limit + 1);
  // A row without its ids is past the page's budget of prompt ids (see `page` in `queries`): the page ends before it.
  const whole = rows.findIndex((row) => row.prompt_ids === null);
  const items = rows.slice(0, whole === -1 ? limit : Math.min(whole, limit)).map(toConversation);
  const last = items.at(-1);
  return rows.length > items.length && last
    ? { items, nextCursor: encodeCursor([last.updatedAt, last.id]) }
    : { items };
}
