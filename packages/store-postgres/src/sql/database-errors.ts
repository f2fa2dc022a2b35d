/** PostgreSQL's SQLSTATE for a unique index violation; both drivers expose `code` and `constraint`. */
const UNIQUE_VIOLATION = '23505';

/** Whether `error` is a unique violation of the named index or constraint. */
export function violates(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === UNIQUE_VIOLATION && e.constraint === constraint;
}
