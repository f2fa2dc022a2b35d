import {
  type Page,
  type PageOptions,
  type RecordStore,
  type StoredRecord,
  VersionConflictError,
} from '@tessera/core';
import type { Row, SqlDriver } from './driver.ts';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor } from './sql/cursor.ts';
import { NOW, toIso, toJson } from './sql/values.ts';

type RecordRow = Row & { id: string; value: unknown; version: number; updated_at: Date };

function queries(s: string) {
  const returning = 'RETURNING id, version, updated_at';
  return {
    get: `SELECT id, value, version, updated_at FROM ${s}.records WHERE namespace = $1 AND id = $2`,
    upsert: `INSERT INTO ${s}.records AS r (namespace, id, value, version, updated_at) VALUES ($1, $2, $3::jsonb, 1, ${NOW})
      ON CONFLICT (namespace, id) DO UPDATE
      SET value = excluded.value, version = r.version + 1, updated_at = excluded.updated_at
      ${returning}`,
    insertIfAbsent: `INSERT INTO ${s}.records (namespace, id, value, version, updated_at)
      VALUES ($1, $2, $3::jsonb, 1, ${NOW}) ON CONFLICT (namespace, id) DO NOTHING ${returning}`,
    // A claim (a trigger firing, a record edited by two people) is this one conditional update.
    updateIfVersion: `UPDATE ${s}.records SET value = $3::jsonb, version = version + 1, updated_at = ${NOW}
      WHERE namespace = $1 AND id = $2 AND version = $4 ${returning}`,
    delete: `DELETE FROM ${s}.records WHERE namespace = $1 AND id = $2 RETURNING id`,
    // Ids are "C"-collated, so `LIKE 'prefix%'` is an index range scan.
    list: `SELECT id, value, version, updated_at FROM ${s}.records
      WHERE namespace = $1 AND id LIKE $2 AND ($3::text IS NULL OR id > $3::text)
      ORDER BY id LIMIT $4`,
  };
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`;

const toRecord = <T>(row: RecordRow, value = row.value): StoredRecord<T> => ({
  id: row.id,
  value: value as T,
  version: row.version,
  updatedAt: toIso(row.updated_at),
});

export function recordStore(db: SqlDriver, schema: string): RecordStore {
  const sql = queries(schema);
  return {
    async get<T>(namespace: string, id: string) {
      const [row] = await db.query<RecordRow>(sql.get, [namespace, id]);
      return row && toRecord<T>(row);
    },
    async put<T>(namespace: string, id: string, value: T, options?: { expectedVersion?: number }) {
      const json = toJson(value) ?? 'null';
      const expected = options?.expectedVersion;
      const [row] =
        expected === undefined
          ? await db.query<RecordRow>(sql.upsert, [namespace, id, json])
          : expected === 0
            ? await db.query<RecordRow>(sql.insertIfAbsent, [namespace, id, json])
            : await db.query<RecordRow>(sql.updateIfVersion, [namespace, id, json, expected]);
      if (!row) throw new VersionConflictError(namespace, id);
      // What the store now holds (a JSON copy), not the caller's object, which it may go on changing.
      return toRecord<T>(row, JSON.parse(json));
    },
    async delete(namespace, id) {
      return (await db.query(sql.delete, [namespace, id])).length > 0;
    },
    async list<T>(namespace: string, options: { prefix?: string } & PageOptions = {}) {
      const after = decodeCursor(options.cursor, 1);
      const limit = options.limit ?? DEFAULT_PAGE_SIZE;
      const rows = await db.query<RecordRow>(sql.list, [
        namespace,
        likePrefix(options.prefix ?? ''),
        after?.[0] ?? null,
        limit + 1,
      ]);
      const items = rows.slice(0, limit).map((row) => toRecord<T>(row));
      const last = items.at(-1);
      const page: Page<StoredRecord<T>> =
        rows.length > limit && last ? { items, nextCursor: encodeCursor([last.id]) } : { items };
      return page;
    },
  };
}
