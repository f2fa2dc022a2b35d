import { TesseraError } from '@tessera/core';

/** The schema holding Tessera's tables unless the app names another. */
export const DEFAULT_SCHEMA = 'tessera';

/**
 * Checks a schema name and returns it quoted for SQL. Only plain lower-case identifiers are accepted, so the
 * name can be spliced into statements safely and means the same quoted or not.
 */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TesseraError(
      'invalid_input',
      `Schema name '${schema}' is not allowed: use lower-case letters, digits and underscores (at most 63).`,
    );
  }
  return `"${schema}"`;
}
