import type { JsonSchema } from '@tessera/core';

type Schema = Record<string, unknown>;

// Keywords OpenAI's strict (structured outputs) mode does not accept.
const UNSUPPORTED = [
  'default',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'patternProperties',
];

/** Whether a schema can be sent with `strict: true`: every object closed and every property required. */
function strictable(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return true;
  const node = schema as Schema;
  if (UNSUPPORTED.some((keyword) => keyword in node)) return false;
  if (node.type === 'object' || 'properties' in node) {
    const properties = (node.properties ?? {}) as Schema;
    const required = new Set((node.required as string[] | undefined) ?? []);
    if (Object.keys(properties).some((key) => !required.has(key))) return false;
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) return false;
    if (!Object.values(properties).every(strictable)) return false;
  }
  if (node.items && !strictable(node.items)) return false;
  for (const key of ['anyOf', 'prefixItems'] as const) {
    if (Array.isArray(node[key]) && !(node[key] as unknown[]).every(strictable)) return false;
  }
  for (const key of ['$defs', 'definitions'] as const) {
    if (node[key] && !Object.values(node[key] as Schema).every(strictable)) return false;
  }
  return true;
}

/** A copy with every object closed (`additionalProperties: false`), as strict mode requires. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(
    Object.entries(schema as Schema).map(([key, value]) => [key, closed(value)]),
  );
  if (node.type === 'object' || 'properties' in node) node.additionalProperties = false;
  return node;
}

export type FunctionParameters = { parameters: JsonSchema; strict: boolean };

const cache = new WeakMap<JsonSchema, FunctionParameters>();

/**
 * The parameters to send for a tool, and whether strict mode can be used: decided once per schema object
 * (tools derive theirs once), never per round. Schemas strict mode cannot express go non-strict unchanged.
 */
export function functionParameters(schema: JsonSchema): FunctionParameters {
  let result = cache.get(schema);
  if (!result) {
    result = strictable(schema)
      ? { parameters: closed(schema) as JsonSchema, strict: true }
      : { parameters: schema, strict: false };
    cache.set(schema, result);
  }
  return result;
}
