/**
 * Serialises a value for a `jsonb` parameter. PostgreSQL cannot store U+0000 in text or jsonb, nor a lone
 * UTF-16 surrogate: those characters become U+FFFD instead of failing the write (and with it the record).
 * `undefined` becomes SQL NULL.
 */
export function toJson(value: unknown): string | null {
  const json = JSON.stringify(value);
  if (json === undefined) return null;
  // JSON.stringify escapes exactly these characters as \u0000 and \udXXX: only then take the slow path.
  return /\\u(0000|d[89a-f])/i.test(json) ? JSON.stringify(value, storable) : json;
}

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const storable = (_key: string, value: unknown): unknown =>
  typeof value === 'string' ? value.replace(UNSTORABLE, '\uFFFD') : value;

/** Text for a `text` column, with the characters PostgreSQL rejects replaced like in `toJson`. */
export const toText = (value: string | undefined): string | null =>
  value === undefined ? null : value.replace(UNSTORABLE, '\uFFFD');

/** A `timestamptz` as the drivers return it (a Date) back to the ISO string the core model uses. */
export const toIso = (value: unknown): string =>
  (value instanceof Date ? value : new Date(String(value))).toISOString();

/** The database clock at millisecond precision: one clock for every process, and ISO strings round-trip. */
export const NOW = `date_trunc('milliseconds', statement_timestamp())`;

/** The fields of `value` that are not in `known`, as a jsonb parameter (NULL when there are none). */
export function extraFields(value: object, known: readonly string[]): string | null {
  const extra = Object.fromEntries(Object.entries(value).filter(([key]) => !known.includes(key)));
  return Object.keys(extra).length > 0 ? toJson(extra) : null;
}
