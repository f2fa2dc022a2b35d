import fc from 'fast-check';
import type { OpenApiDocument, Schema } from './document.ts';
import { ANY_JSON_VALUES, edgeString, jsonType, PROTOTYPE_KEYS } from './hostile.ts';

/** `schema` with its `$ref` (to the document's components) followed. */
export function resolve(schema: Schema, document: OpenApiDocument): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return resolve(document.components?.schemas?.[name] ?? {}, document);
}

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** Strings a string schema takes (mostly): its example, its pattern's, edge Unicode, right at its limits. */
function stringValue(schema: Schema): fc.Arbitrary<string> {
  const min = number(schema.minLength) ?? 0;
  const max = number(schema.maxLength);
  const fits = (value: string) => value.length >= min && (max === undefined || value.length <= max);
  const options: fc.WeightedArbitrary<string>[] = [];
  // The example is often the only value a refinement takes (a time zone): half the time, it.
  if (typeof schema.example === 'string') options.push({ weight: 7, arbitrary: fc.constant(schema.example) });
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    options.push({ weight: 4, arbitrary: fc.stringMatching(pattern).filter(fits) });
  } else {
    const ordinary = fc.string({ minLength: Math.max(min, 1), maxLength: Math.min(max ?? 40, 40) });
    options.push({ weight: 4, arbitrary: ordinary });
    options.push({ weight: 2, arbitrary: edgeString(Math.min(max ?? 40, 40)).filter(fits) });
    if (max !== undefined) {
      // At the limit, and one over it, in characters that take one, three and four bytes (two UTF-16 units).
      options.push({
        weight: 1,
        arbitrary: fc
          .constantFrom('x', '€', '😀')
          .chain((char) =>
            fc.constantFrom(char.repeat(Math.floor(max / char.length)), `${char.repeat(max)}x`),
          ),
      });
    }
  }
  return fc.oneof(...options);
}

/**
 * Values valid for `schema` (mostly: a pattern's or a refinement's fine print aside), with edge-case strings.
 * Objects get their required properties and any of the optional ones.
 */
export function valueFor(schema: Schema, document: OpenApiDocument, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, document);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  const alternatives = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => valueFor(alt, document, depth + 1)));
  switch (s.type) {
    case 'string':
      return stringValue(s);
    case 'integer':
      return fc.integer({ min: number(s.minimum) ?? -1e6, max: number(s.maximum) ?? 1e6 });
    case 'number':
      return fc.double({ min: number(s.minimum) ?? -1e6, max: number(s.maximum) ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor((s.items as Schema) ?? {}, document, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, valueFor(value, document, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: (s.required as string[] | undefined) ?? [] });
    }
    default:
      // No type (`z.unknown()`): any JSON.
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 3 });
  }
}

/** Sets `key` as an own, enumerable property, even `__proto__` (which JSON.stringify then writes). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A valid object body spoiled one way: a property of the wrong type, a required one missing, or extra keys
 * (prototype keys among them).
 */
export function spoiled(schema: Schema, document: OpenApiDocument): fc.Arbitrary<unknown> {
  const s = resolve(schema, document);
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const typeOf = (key: string) => resolve(properties[key]!, document).type as string | undefined;
  // Properties of any type (`z.unknown()`) have no wrong one.
  const typed = Object.keys(properties).filter((key) => typeOf(key) !== undefined);
  const required = (s.required as string[] | undefined) ?? [];
  const valid = valueFor(s, document).map((value) => (isObject(value) ? { ...value } : {}));
  const wrongType =
    typed.length === 0
      ? undefined
      : fc
          .tuple(valid, fc.constantFrom(...typed), fc.constantFrom(...ANY_JSON_VALUES))
          .filter(([, key, value]) => {
            const type = typeOf(key);
            return type !== jsonType(value) && !(type === 'number' && jsonType(value) === 'integer');
          })
          .map(([body, key, value]) => ({ ...body, [key]: value }));
  const missing =
    required.length === 0
      ? undefined
      : fc.tuple(valid, fc.constantFrom(...required)).map(([body, key]) => {
          const { [key]: _dropped, ...rest } = body;
          return rest;
        });
  const extra = fc
    .tuple(
      valid,
      fc.uniqueArray(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 10 })), {
        minLength: 1,
        maxLength: 3,
      }),
      fc.constantFrom<unknown>({ polluted: true }, { prototype: { polluted: true } }, 'x', 1, null),
    )
    .map(([body, extraKeys, value]) => {
      for (const key of extraKeys) setOwn(body, key, value);
      return body;
    });
  const spoilers: fc.Arbitrary<Record<string, unknown>>[] = [extra];
  if (wrongType) spoilers.push(wrongType);
  if (missing) spoilers.push(missing);
  return fc.oneof(...spoilers);
}
