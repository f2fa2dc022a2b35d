/**
 * The arguments `approve` runs a tool call with: `--input '<json>'` replaces the model's arguments whole;
 * `--set key=value` (repeatable) changes one field of them (of `--input`'s, when both are given).
 */
export type ApproveEdit = { input?: unknown; set?: ReadonlyArray<readonly [string, unknown]> };

/** `--input '<json>'`: the edited arguments, or a clear error before anything is sent. */
export function parseInputOption(text: string | undefined): { input?: unknown } {
  if (text === undefined) return {};
  try {
    return { input: JSON.parse(text) };
  } catch (error) {
    throw new Error(
      `--input is not JSON (${(error as Error).message}); it replaces all the arguments, e.g. --input '{"amount": 50, "to": "Ada"}' (or change one with --set amount=50)`,
    );
  }
}

/**
 * `--set key=value` options: a value is read as JSON when it parses (`50`, `true`, `["a"]`, `"50"`), else
 * taken as the string it is (`Ada`), so that the common case needs no quotes inside quotes.
 */
export function parseSetOptions(values: readonly string[] = []): Array<[string, unknown]> {
  return values.map((value) => {
    const equals = value.indexOf('=');
    if (equals < 1) throw new Error(`--set takes key=value, e.g. --set amount=50 (got '${value}').`);
    const text = value.slice(equals + 1);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return [value.slice(0, equals), parsed];
  });
}

/**
 * The arguments with `set` applied to `base` (the model's, or `--input`'s), as own data properties: a key
 * like `__proto__` becomes a field, never the object's prototype.
 */
export function applySets(base: unknown, set: ReadonlyArray<readonly [string, unknown]>): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base)) {
    throw new Error('--set changes fields of an object, and these arguments are not one: use --input.');
  }
  return Object.fromEntries([...Object.entries(base), ...set]);
}

/**
 * `answer <id> <result>`: the result a call is answered with, read as `--set` reads a value: JSON when it
 * parses (`{"balance": 120}`, `42`, `"42"`), else the text as it is (`paid in cash`).
 */
export function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
