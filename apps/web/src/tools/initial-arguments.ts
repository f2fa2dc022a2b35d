import { isFlatObjectSchema } from '../outputs/ArgumentsEditor.tsx';

/**
 * The arguments a tool's form starts with: each property's `default`, and the first of a list of choices
 * (the form shows one chosen: it must be the value sent). Anything else starts empty.
 */
export function initialArguments(schema: unknown): Record<string, unknown> {
  const properties = (schema as { properties?: Record<string, { default?: unknown; enum?: unknown[] }> })
    ?.properties;
  if (!properties) return {};
  const initial: [string, unknown][] = [];
  for (const [name, field] of Object.entries(properties)) {
    if (field.default !== undefined) initial.push([name, field.default]);
    else if (isFlatObjectSchema(schema) && Array.isArray(field.enum) && field.enum.length > 0)
      initial.push([name, field.enum[0]]);
  }
  // fromEntries defines own properties: a field named `__proto__` (a plugin's schema, as JSON) stays a field
  // rather than setting the object's prototype.
  return Object.fromEntries(initial);
}

/** Whether a tool takes arguments at all (an object schema with properties, or one open to any). */
export function takesArguments(schema: unknown): boolean {
  const s = schema as { properties?: object; additionalProperties?: unknown } | undefined;
  return Object.keys(s?.properties ?? {}).length > 0 || (s?.additionalProperties ?? false) !== false;
}
