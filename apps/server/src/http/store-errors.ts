/**
 * PostgreSQL's SQLSTATEs for data it cannot take, with what each means to a client. Both drivers of the
 * store (PGlite and pg) throw errors carrying `code` and `severity`. They reach the API when a request's value
 * goes to the database unchecked, e.g. a forged page cursor: the client's fault, answered 400, never 500.
 */
const CLIENT_DATA: Record<string, string> = {
  '22001': 'a value is too long',
  '22003': 'a number is out of range',
  '22007': 'a date or time is malformed',
  '22008': 'a date or time is out of range',
  '22021': 'a value is not valid text (e.g. it holds a NUL byte)',
  '22P02': 'a value has the wrong form',
  '22P05': 'a value holds a character the database cannot store (e.g. \\u0000)',
};

/** What was wrong with the request, if `error` (or an error it wraps) is the database refusing its data. */
export function clientDataProblem(error: unknown): { sqlState: string; problem: string } | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { code, severity, cause } = e as { code?: unknown; severity?: unknown; cause?: unknown };
    if (typeof code === 'string' && typeof severity === 'string' && code in CLIENT_DATA)
      return { sqlState: code, problem: CLIENT_DATA[code]! };
    e = cause;
  }
  return undefined;
}
