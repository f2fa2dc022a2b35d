import fc from 'fast-check';
import type { OpenApiDocument, Schema } from './document.ts';
import { edgeString, PROTOTYPE_KEYS } from './hostile.ts';
import { resolve, spoiled, valueFor } from './schema-values.ts';

/** A request body as a recipe: printed short (a counterexample stays readable), made when sent. */
export class Body {
  readonly label: string;
  readonly make: () => Promise<{ bytes: Buffer; contentType: string | undefined }>;
  constructor(label: string, make: Body['make']) {
    this.label = label;
    this.make = make;
  }
  [fc.toStringMethod]() {
    return this.label;
  }
}

export type Limits = { maxBodyBytes: number; maxUploadBytes: number };

const preview = (text: string) =>
  text.length > 160
    ? `${JSON.stringify(text.slice(0, 160))}…(${Buffer.byteLength(text)} bytes)`
    : JSON.stringify(text);

/** Bytes sent as they are, with this content type (undefined: no Content-Type header). */
export const raw = (
  kind: string,
  bytes: Buffer | string,
  contentType: string | undefined = 'application/json',
) =>
  new Body(`${kind} ${contentType ?? '(no content type)'} ${preview(bytes.toString())}`, async () => ({
    bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8'),
    contentType,
  }));

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json'];
const WRONG_TYPES = [
  undefined,
  '',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json;charset=iso-8859-1',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/json, text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=zzz',
  'application/xml',
  '*/*',
  ';',
];

const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,]',
  'NaN',
  'undefined',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '{"a":1e999999}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\uZZZZ"}',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '0',
  '"x"',
  'null',
  '[]',
  'true',
];

/** Bytes that are not UTF-8: overlong forms, a surrogate's bytes, a cut sequence, bytes that never occur. */
const INVALID_UTF8 = [
  [0xc0, 0xae],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xff],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** A valid JSON body, or one spoiled: wrong types, missing or extra (prototype) keys, odd content types. */
function jsonBodies(schema: Schema, document: OpenApiDocument): fc.Arbitrary<Body> {
  const valid = valueFor(schema, document).map((value) => JSON.stringify(value));
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...JSON_TYPES))
        .map(([text, type]) => raw('valid', text, type)),
    },
    { weight: 3, arbitrary: spoiled(schema, document).map((value) => raw('spoiled', JSON.stringify(value))) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...WRONG_TYPES))
        .map(([text, type]) => raw('valid, content type', text, type)),
    },
  );
}

/** The names of an object schema's properties (for nesting and bytes into one of them), else a made-up one. */
const propertyNames = (schema: Schema, document: OpenApiDocument) => {
  const names = Object.keys((resolve(schema, document).properties ?? {}) as object);
  return names.length > 0 ? names : ['x'];
};

/** JSON nested `depth` deep (arrays or objects), as the whole body or as the value of `key`. */
const nested = (depth: number, arrays: boolean, key: string | undefined) => {
  const value = arrays
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return raw(`nested ${depth} deep`, key === undefined ? value : `{"${key}":${value}}`);
};
/** A body `over` bytes over the limit (negative: under it, with a string far over any schema's). */
const huge = (key: string, over: number, limits: Limits) =>
  raw('huge', `{"${key}":"${'x'.repeat(limits.maxBodyBytes + over - key.length - 7)}"}`);
const notUtf8 = (key: string, bytes: number[]) =>
  raw('not UTF-8', Buffer.concat([Buffer.from(`{"${key}":"a`), Buffer.from(bytes), Buffer.from('b"}')]));

/** Bodies no schema expects: malformed, deeply nested, over the limit, not UTF-8. */
export function junkBodies(
  schema: Schema | undefined,
  document: OpenApiDocument,
  limits: Limits,
): fc.Arbitrary<Body> {
  const names = fc.constantFrom(...(schema ? propertyNames(schema, document) : ['x']));
  const depths = fc.constantFrom(100, 1_000, 10_000);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((text) => raw('malformed', text)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(depths, fc.boolean(), fc.option(names, { nil: undefined }))
        .map((a) => nested(...a)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(names, fc.constantFrom(-200, 1, 1_000))
        .map(([key, over]) => huge(key, over, limits)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(names, fc.constantFrom(...INVALID_UTF8)).map(([key, bytes]) => notUtf8(key, bytes)),
    },
  );
}

/**
 * The junk every run sends to a route that takes a body, whatever the seed: nested 10,000 deep into each
 * property and as the whole body, just over the limit, prototype keys, not UTF-8.
 */
export function junkCatalogue(schema: Schema | undefined, document: OpenApiDocument, limits: Limits): Body[] {
  const names = schema ? propertyNames(schema, document) : ['x'];
  return [
    ...names.flatMap((key) => [nested(10_000, true, key), nested(10_000, false, key)]),
    nested(10_000, true, undefined),
    nested(10_000, false, undefined),
    huge(names[0]!, 1, limits),
    notUtf8(names[0]!, INVALID_UTF8[0]!),
    ...MALFORMED_JSON.filter((text) => /proto|constructor/.test(text)).map((text) => raw('malformed', text)),
  ];
}

const FILE_NAMES = [
  'notes.txt',
  '..',
  '.',
  '',
  ' ',
  '../../etc/passwd',
  '..\\..\\boot.ini',
  'a\u0000b',
  '💥.txt',
  'x'.repeat(300),
  '__proto__',
  'CON',
  'a/b',
  'txt.\u202eexe',
  '\ud800',
];
const FILE_TYPES = [
  'text/plain',
  '',
  'text/html',
  'image/svg+xml',
  'application/octet-stream',
  '../../x',
  'text/plain; charset=utf-7',
];

const file = (limits: Limits) =>
  fc.record({
    name: fc.oneof(fc.constantFrom(...FILE_NAMES), edgeString(12)),
    type: fc.constantFrom(...FILE_TYPES),
    size: fc.constantFrom(0, 5, 1_000, limits.maxUploadBytes + 1),
  });

const ORDINARY_FILE = {
  name: fc.constantFrom('notes.txt', 'data.csv'),
  type: fc.constant('text/plain'),
  size: fc.constant(5),
};

/**
 * multipart/form-data: the schema's fields (valid-ish) with files; unless `valid`, hostile file names, types
 * and sizes, extra and repeated fields, too many files.
 */
function formBodies(
  schema: Schema,
  document: OpenApiDocument,
  limits: Limits,
  valid: boolean,
): fc.Arbitrary<Body> {
  const properties = (resolve(schema, document).properties ?? {}) as Record<string, Schema>;
  const textFields = Object.fromEntries(Object.entries(properties).filter(([, s]) => s.format !== 'binary'));
  const fields = valueFor({ type: 'object', properties: textFields }, document) as fc.Arbitrary<
    Record<string, unknown>
  >;
  const extra = valid
    ? fc.constant([])
    : fc.subarray([...PROTOTYPE_KEYS, 'unknown', 'files', ...Object.keys(textFields)], { maxLength: 2 });
  const files = fc.array(valid ? fc.record(ORDINARY_FILE) : file(limits), { maxLength: valid ? 2 : 3 });
  const many = valid ? fc.constant(false) : fc.boolean();
  return fc.record({ fields, extra, files, many }).map(({ fields, extra, files, many }) => {
    const all = many
      ? [...files, ...Array.from({ length: 11 }, () => ({ name: 'f.txt', type: 'text/plain', size: 1 }))]
      : files;
    const label = `form fields=${JSON.stringify(fields).slice(0, 200)} extra=${JSON.stringify(extra)} files=${JSON.stringify(all.map((f) => [f.name.slice(0, 20), f.type, f.size]))}`;
    return new Body(label, async () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
      for (const key of extra) form.append(key, 'extra');
      for (const f of all)
        form.append('files', new File([new Uint8Array(f.size).fill(120)], f.name, { type: f.type }));
      const request = new Request('http://fuzz.invalid/', { method: 'POST', body: form });
      return {
        bytes: Buffer.from(await request.arrayBuffer()),
        contentType: request.headers.get('content-type') ?? undefined,
      };
    });
  });
}

const MALFORMED_FORMS = [
  raw(
    'malformed form',
    '--x\r\nContent-Disposition: form-data; name="input"\r\n\r\nhello',
    'multipart/form-data; boundary=x',
  ),
  raw('malformed form', 'input=hello', 'multipart/form-data'),
  raw('malformed form', '--y\r\n\r\n--y--', 'multipart/form-data; boundary=x'),
  raw(
    'malformed form',
    '--x\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nabc\r\n--x--\r\n',
    'multipart/form-data; boundary=x',
  ),
];

/**
 * Bodies for an operation: valid and spoiled ones of each documented type, junk, forms. `valid` keeps to the
 * valid ones (none, when the route takes no body or need not have one).
 */
export function bodies(
  body: { required: boolean; content: Record<string, Schema> } | undefined,
  document: OpenApiDocument,
  limits: Limits,
  valid: boolean,
): fc.Arbitrary<Body | undefined> {
  const content = body?.content;
  const json = content?.['application/json'];
  const form = content?.['multipart/form-data'];
  const options: fc.WeightedArbitrary<Body | undefined>[] = [];
  if (json)
    options.push({
      weight: 4,
      arbitrary: valid
        ? valueFor(json, document).map((v) => raw('valid', JSON.stringify(v)))
        : jsonBodies(json, document),
    });
  if (form) options.push({ weight: 3, arbitrary: formBodies(form, document, limits, valid) });
  if (!body || (valid && !body.required))
    options.push({ weight: body ? 1 : 6, arbitrary: fc.constant(undefined) });
  if (!valid) {
    options.push({ weight: 2, arbitrary: junkBodies(json, document, limits) });
    options.push({ weight: 1, arbitrary: fc.constantFrom(...MALFORMED_FORMS) });
    const anyForm = { type: 'object', properties: { input: { type: 'string' } } };
    if (!form) options.push({ weight: 1, arbitrary: formBodies(anyForm, document, limits, false) });
  }
  return fc.oneof(...options);
}
