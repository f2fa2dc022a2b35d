import {
  NotFoundError,
  type OutputBase,
  type Page,
  type PageOptions,
  type PromptPatch,
  type PromptRecord,
  type PromptState,
  type PromptStore,
} from '@tessera/core';
import { promptWithHistory } from './conversation-history.ts';
import type { Row, SqlDriver, SqlExecutor } from './driver.ts';
import type { HistoryCache } from './history-cache.ts';
import { activePrompt, insertingPrompt, insertPrompt } from './prompt-insert.ts';
import { knownPromptColumns, type PromptRow, promptColumns, toPrompt } from './prompt-row.ts';
import { decodeSeqCursor, encodeCursor, pageLimit } from './sql/cursor.ts';
import { historyPrompts } from './sql/history.ts';
import { NOW, toJson } from './sql/values.ts';

/**
 * The first key of the session advisory lock each store holds while open (`pg_advisory_lock(space,
 * hashtext(runner))`): other processes read a running prompt's runner as alive while its lock is held.
 */
export const RUNNER_LOCK_SPACE = 1952805748;

type PatchResult = Row & {
  updated: number;
  found: boolean;
  state_matched: boolean;
  outputs_matched: boolean;
};

/** A running prompt that the runner in `$1` may take: its own, or one whose runner's lock is gone. */
const orphaned = `p.state = 'running' AND (p.runner IS NULL OR p.runner = $1 OR NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = ${RUNNER_LOCK_SPACE}
      AND l.objid = (hashtext(p.runner)::bigint & 4294967295)::oid))`;

/** The prompt statements for the quoted schema `s` (exported for the storage layout tests). */
export function queries(s: string) {
  const columns = promptColumns(s);
  // A patch's fields (`$2`–`$7`, see `applyPatch`) and its compare-and-set on the state.
  const patched = `state = coalesce($2, state),
          runner = CASE WHEN $2 = 'running' THEN $6 ELSE runner END,
          usage = coalesce($3::jsonb, usage),
          stop_reason = coalesce($4::jsonb, stop_reason),
          updated_at = coalesce($7::timestamptz, ${NOW})`;
  const patchable = `id = $1 AND ($5::text[] IS NULL OR state = ANY ($5::text[]))`;
  const select = `SELECT ${columns} FROM ${s}.prompts p`;
  return {
    create: `${insertingPrompt(s, { owned: false })}
      SELECT id FROM prompt`,
    activePrompt: activePrompt(s),
    get: `${select} WHERE p.id = $1`,
    // `$2`: the prompts the reader knows (a `HistoryRead`'s keys), whose outputs are left out.
    listByConversation: `SELECT h.* FROM (${historyPrompts(s, '$1', knownPromptColumns(s, '$2::jsonb'))}) h
      ORDER BY h.part, h.ord`,
    listByState: `${select} WHERE p.state = $1 ORDER BY p.seq`,
    // Keyset paged on prompts_by_user_state: one index range from the cursor on, `$4` rows (a page and one more).
    listByUserAndState: `SELECT p.seq::text AS seq, ${columns} FROM ${s}.prompts p
      WHERE p.user_id = $1 AND p.state = $2 AND p.seq > $3::bigint ORDER BY p.seq LIMIT $4`,
    listByIds: `${select} WHERE p.id = ANY ($1::text[]) ORDER BY p.seq`,
    findByToolCall: `${select}
      WHERE p.id = (SELECT prompt_id FROM ${s}.prompt_outputs WHERE output_id = $1 LIMIT 1)`,
    // Takes the next position under the prompt's row lock, so concurrent appends never collide.
    appendOutput: `WITH prompt AS (
        UPDATE ${s}.prompts SET output_count = output_count + 1, updated_at = ${NOW}
        WHERE id = $1 RETURNING id, output_count - 1 AS position
      )
      INSERT INTO ${s}.prompt_outputs (prompt_id, position, output_id, value)
      SELECT prompt.id, prompt.position, $2, $3::jsonb FROM prompt
      RETURNING position`,
    // The compare-and-set, the replaced outputs and the appended ones in one statement (one round trip, no
    // transaction): the prompt's row lock makes a second claimant wait, then see the new state and match
    // nothing. The prompt row is updated only when every output to replace exists, so a refused patch writes
    // nothing; the flags say which check refused it. Whoever sets a prompt running (a resumed approval, a
    // recovery) is the process that runs it. `$7`: the writer's time, `$8`: outputs to replace, `$9`: outputs to append.
    updatePrompt: `WITH replacing AS (
        SELECT DISTINCT ON (item.value ->> 'id') item.value ->> 'id' AS output_id, item.value
        FROM jsonb_array_elements($8::jsonb) WITH ORDINALITY AS item (value, ordinality)
        ORDER BY item.value ->> 'id', item.ordinality DESC
      ), matched AS (
        SELECT count(*)::integer AS n FROM ${s}.prompt_outputs o JOIN replacing r USING (output_id)
        WHERE o.prompt_id = $1
      ), updated AS (
        UPDATE ${s}.prompts SET ${patched}, output_count = output_count + jsonb_array_length($9::jsonb)
        WHERE ${patchable} AND (SELECT n FROM matched) = (SELECT count(*) FROM replacing)
        RETURNING id, output_count - jsonb_array_length($9::jsonb) AS first_position
      ), replaced AS (
        UPDATE ${s}.prompt_outputs o SET value = r.value FROM replacing r, updated
        WHERE o.prompt_id = updated.id AND o.output_id = r.output_id
      ), appended AS (
        INSERT INTO ${s}.prompt_outputs (prompt_id, position, output_id, value)
        SELECT updated.id, updated.first_position + item.ordinality - 1, item.value ->> 'id', item.value
        FROM updated, jsonb_array_elements($9::jsonb) WITH ORDINALITY AS item (value, ordinality)
      )
      SELECT (SELECT count(*) FROM updated)::integer AS updated,
        p.id IS NOT NULL AS found,
        coalesce($5::text[] IS NULL OR p.state = ANY ($5::text[]), false) AS state_matched,
        (SELECT n FROM matched) = (SELECT count(*) FROM replacing) AS outputs_matched
      FROM (SELECT 1) AS one LEFT JOIN ${s}.prompts p ON p.id = $1`,
    // Running prompts whose process is gone (its session lock was released when its connection closed), or
    // this process's own but for those it runs ($2): the row locks make processes claiming at once take each
    // prompt once.
    claimOrphans: `UPDATE ${s}.prompts p SET runner = $1
      WHERE ${orphaned} AND NOT (p.id = ANY ($2::text[]))
      RETURNING p.id`,
    claimOrphan: `UPDATE ${s}.prompts p SET runner = $1 WHERE p.id = $2 AND ${orphaned} RETURNING p.id`,
    removeOutputs: `DELETE FROM ${s}.prompt_outputs WHERE prompt_id = $1 AND output_id = ANY ($2::text[])
      RETURNING position`,
    // Closes the gaps in two steps (through negative positions), since the primary key is checked row by row.
    compactOutputs: `WITH ordered AS (
        SELECT position, (row_number() OVER (ORDER BY position) - 1)::integer AS next
        FROM ${s}.prompt_outputs WHERE prompt_id = $1
      )
      UPDATE ${s}.prompt_outputs o SET position = -1 - ordered.next FROM ordered
      WHERE o.prompt_id = $1 AND o.position = ordered.position AND ordered.next <> o.position`,
    unflipOutputs: `UPDATE ${s}.prompt_outputs SET position = -1 - position WHERE prompt_id = $1 AND position < 0`,
    // The common patch (state, usage, stop reason): a plain compare-and-set, the cheapest statement to plan.
    updateState: `UPDATE ${s}.prompts SET ${patched} WHERE ${patchable} RETURNING id`,
    // A patch that appends outputs and replaces none (a round's calls, a text answer with the final state):
    // the update and the inserts alone, a cheaper plan to run than updatePrompt's checks of replaced outputs.
    // A row per appended output, none when the patch was refused. `$8`: outputs to append.
    appendPatch: `WITH updated AS (
        UPDATE ${s}.prompts SET ${patched}, output_count = output_count + jsonb_array_length($8::jsonb)
        WHERE ${patchable}
        RETURNING id, output_count - jsonb_array_length($8::jsonb) AS first_position
      )
      INSERT INTO ${s}.prompt_outputs (prompt_id, position, output_id, value)
      SELECT updated.id, updated.first_position + item.ordinality - 1, item.value ->> 'id', item.value
      FROM updated, jsonb_array_elements($8::jsonb) WITH ORDINALITY AS item (value, ordinality)
      RETURNING position`,
    exists: `SELECT 1 FROM ${s}.prompts WHERE id = $1`,
    outputIds: `SELECT output_id FROM ${s}.prompt_outputs WHERE prompt_id = $1`,
    recount: `UPDATE ${s}.prompts
      SET output_count = (SELECT count(*) FROM ${s}.prompt_outputs WHERE prompt_id = $1) WHERE id = $1`,
  };
}

/** What a store instance's prompt functions work with: its database, its statements, and its runner id. */
type Prompts = { db: SqlDriver; sql: ReturnType<typeof queries>; runner: string };

/**
 * The prompts of one store instance, which runs prompts as `runner` (see `RUNNER_LOCK_SPACE`). Its `update`
 * also appends: a round's outputs, usage and final state are one statement, one round trip, all or nothing.
 */
export function promptStore(
  db: SqlDriver,
  schema: string,
  runner: string,
  histories: HistoryCache,
): PromptStore {
  const prompts: Prompts = { db, sql: queries(schema), runner };
  const { sql } = prompts;
  return {
    appendsInUpdate: true,
    create: (prompt) => createPrompt(prompts, prompt),
    createWithHistory: promptWithHistory(db, schema, runner, histories),
    get: (id) => one(db, sql.get, id),
    listByConversation: async (conversationId) => {
      const read = histories.read(conversationId);
      const rows = await db.query<PromptRow & { version: string }>(sql.listByConversation, [
        conversationId,
        read.keys(),
      ]);
      return read.settle(rows, toPrompt);
    },
    listByState: (state) => many(db, sql.listByState, state),
    listByUserAndState: (userId, state, options) => listByUserAndState(prompts, userId, state, options),
    findByToolCall: (toolCallId) => one(db, sql.findByToolCall, toolCallId),
    claimOrphans: (options) => claimOrphans(prompts, options?.except ?? []),
    claimOrphan: (promptId) => claimOrphan(prompts, promptId),
    appendOutput: (promptId, output) => appendOutput(prompts, promptId, output),
    update: (promptId, patch, options) => updatePrompt(prompts, promptId, patch, options?.expectState),
  };
}

const many = async (db: SqlDriver, query: string, param: string) =>
  (await db.query<PromptRow>(query, [param])).map(toPrompt);

const one = async (db: SqlDriver, query: string, param: string) => {
  const [row] = await db.query<PromptRow>(query, [param]);
  return row && toPrompt(row);
};

/**
 * A page of one user's prompts in a state. The cursor is the last prompt's `seq` (base64url JSON, as every
 * cursor of this store), checked to be one before it reaches the database.
 */
async function listByUserAndState(
  { db, sql }: Prompts,
  userId: string,
  state: PromptState,
  options: PageOptions = {},
): Promise<Page<PromptRecord>> {
  const limit = pageLimit(options.limit);
  const after = decodeSeqCursor(options.cursor);
  const rows = await db.query<PromptRow & { seq: string }>(sql.listByUserAndState, [
    userId,
    state,
    after,
    limit + 1,
  ]);
  const page = rows.slice(0, limit);
  const items = page.map(toPrompt);
  return rows.length > limit ? { items, nextCursor: encodeCursor([page.at(-1)!.seq]) } : { items };
}

async function createPrompt({ db, sql, runner }: Prompts, prompt: PromptRecord): Promise<void> {
  await insertPrompt(db, { statement: sql.create, activePrompt: sql.activePrompt }, prompt, runner);
}

async function claimOrphans(
  { db, sql, runner }: Prompts,
  except: readonly string[],
): Promise<PromptRecord[]> {
  const claimed = (await db.query<{ id: string }>(sql.claimOrphans, [runner, except])).map((row) => row.id);
  if (claimed.length === 0) return [];
  return (await db.query<PromptRow>(sql.listByIds, [claimed])).map(toPrompt);
}

async function claimOrphan(
  { db, sql, runner }: Prompts,
  promptId: string,
): Promise<PromptRecord | undefined> {
  const [claimed] = await db.query(sql.claimOrphan, [runner, promptId]);
  return claimed && one(db, sql.get, promptId);
}

async function appendOutput({ db, sql }: Prompts, promptId: string, output: OutputBase): Promise<void> {
  const appended = await db.query(sql.appendOutput, [promptId, output.id, toJson(output)]);
  if (appended.length === 0) throw new NotFoundError(`Prompt ${promptId} does not exist.`);
}

async function updatePrompt(
  prompts: Prompts,
  promptId: string,
  patch: PromptPatch,
  expectState: readonly PromptState[] | undefined,
): Promise<boolean> {
  // Taking outputs out renumbers the rest: a transaction (rare: a call run again after a crash).
  if (patch.removeOutputs?.length) {
    const removing = patch.removeOutputs;
    return prompts.db.transaction(async (tx) => {
      const applied = await applyPatch(prompts, tx, promptId, patch, expectState);
      if (applied) await removeOutputs(prompts, tx, promptId, removing);
      return applied;
    });
  }
  return applyPatch(prompts, prompts.db, promptId, patch, expectState);
}

/** The patch's state, usage, stop reason and replaced outputs, in one statement; false if `expectState` refused it. */
async function applyPatch(
  { sql, runner }: Prompts,
  executor: SqlExecutor,
  promptId: string,
  patch: PromptPatch,
  expectState: readonly PromptState[] | undefined,
): Promise<boolean> {
  const fields = [
    promptId,
    patch.state ?? null,
    toJson(patch.usage),
    toJson(patch.stopReason),
    expectState ?? null,
    runner,
    patch.updatedAt ?? null,
  ];
  if (!patch.outputs?.length) {
    const applied = patch.append?.length
      ? await executor.query(sql.appendPatch, [...fields, toJson(patch.append)])
      : await executor.query(sql.updateState, fields);
    if (applied.length > 0) return true;
    if ((await executor.query(sql.exists, [promptId])).length > 0) return false;
    throw new NotFoundError(`Prompt ${promptId} does not exist.`);
  }
  const [result] = await executor.query<PatchResult>(sql.updatePrompt, [
    ...fields,
    toJson(patch.outputs ?? []),
    toJson(patch.append ?? []),
  ]);
  if (result!.updated > 0) return true;
  if (!result!.found) throw new NotFoundError(`Prompt ${promptId} does not exist.`);
  // An output missing is an error only when the state check passed (else the patch was refused anyway).
  if (result!.state_matched && !result!.outputs_matched) {
    const ids = new Set(
      (await executor.query<{ output_id: string }>(sql.outputIds, [promptId])).map((r) => r.output_id),
    );
    const missing = patch.outputs?.find((output) => !ids.has(output.id));
    throw new NotFoundError(`Prompt ${promptId} has no output ${missing?.id ?? 'of those given'}.`);
  }
  return false;
}

// Rare (a call run again after a crash), so it renumbers what follows rather than leave gaps in positions.
async function removeOutputs({ sql }: Prompts, tx: SqlExecutor, promptId: string, ids: readonly string[]) {
  if ((await tx.query(sql.removeOutputs, [promptId, ids])).length === 0) return;
  await tx.query(sql.compactOutputs, [promptId]);
  await tx.query(sql.unflipOutputs, [promptId]);
  await tx.query(sql.recount, [promptId]);
}
