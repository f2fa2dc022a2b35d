import fc from 'fast-check';
import { type Body, bodies, junkCatalogue, type Limits } from './bodies.ts';
import type { OpenApiDocument, Operation } from './document.ts';
import { encodeLoosely, headerSafe, hostileQueryValue, hostileSegment, PROTOTYPE_KEYS } from './hostile.ts';
import { valueFor } from './schema-values.ts';

/** What the fuzz knows of the server: the document, its users' tokens and ids, its limits. */
export type FuzzContext = {
  document: OpenApiDocument;
  /** The token of the user who fuzzes; the victims' tokens appear only spoiled. */
  tokens: { fuzzer: string; victims: readonly string[] };
  /** The fuzzer's session cookie (`name=value`), for requests a browser would send. */
  sessionCookie: string;
  /**
   * Ids by the path segment that names their collection (`conversations`, `prompts`, `tool-calls`, …): the
   * fuzzer's own (which it may change) and the victims' (which must stay as they are).
   */
  ids: { own: Record<string, readonly string[]>; victims: Record<string, readonly string[]> };
  /** Ids that belong together (a conversation and one of its files), anyone's: for paths with several. */
  bindings: readonly Record<string, string>[];
  /** The event log's boot id, for `Last-Event-ID` values it could resume from. */
  boot: string;
  /** Page cursors of every user's lists, for `cursor` parameters. */
  cursors: readonly string[];
  limits: Limits;
};

/** One request of the fuzz; printed short, so that a counterexample stays readable. */
export class FuzzCase {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Body | undefined;
  constructor(method: string, path: string, headers: Record<string, string>, body: Body | undefined) {
    this.method = method;
    this.path = path;
    this.headers = headers;
    this.body = body;
  }
  [fc.toStringMethod]() {
    const short = (text: string) =>
      text.length > 200 ? `${text.slice(0, 200)}…(${text.length} chars)` : text;
    const headers = Object.entries(this.headers).map(([name, value]) => `${name}: ${short(value)}`);
    return [`${this.method} ${short(this.path)}`, ...headers, this.body?.label ?? '(no body)'].join('\n  ');
  }
}

const weighted = <T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>, onlyValid: boolean) =>
  onlyValid ? valid : fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: hostile });

/** A path parameter: an id of its collection (the fuzzer's or a victim's), another kind of id, or a trick. */
function segment(collection: string, context: FuzzContext, onlyValid: boolean): fc.Arbitrary<string> {
  const own = context.ids.own[collection] ?? [];
  const victims = context.ids.victims[collection] ?? [];
  const everyId = [...Object.values(context.ids.own), ...Object.values(context.ids.victims)].flat();
  const known = [
    ...(own.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...own) }] : []),
    ...(victims.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...victims) }] : []),
    { weight: 1, arbitrary: fc.stringMatching(/^[\w-]{1,100}$/) },
  ];
  const hostile = fc.oneof(
    { weight: 1, arbitrary: everyId.length > 0 ? fc.constantFrom(...everyId) : fc.constant('x') },
    { weight: 3, arbitrary: hostileSegment },
  );
  return weighted(fc.oneof(...known), hostile, onlyValid);
}

/** The path with each parameter filled (the collection of `{id}` is the segment before it). */
function path(op: Operation, context: FuzzContext, onlyValid: boolean): fc.Arbitrary<string> {
  const segments = op.path.split('/');
  const parts = segments.map((part, i) =>
    part.startsWith('{') ? segment(segments[i - 1] ?? '', context, onlyValid) : fc.constant(part),
  );
  const separately = fc.tuple(...parts).map((filled) => filled.join('/'));
  // With several parameters, ids picked one by one seldom belong together: half the time, ids that do.
  const collections = segments.flatMap((part, i) => (part.startsWith('{') ? [segments[i - 1] ?? ''] : []));
  const bound = context.bindings.filter((binding) => collections.every((c) => binding[c] !== undefined));
  if (collections.length < 2 || bound.length === 0) return separately;
  const together = fc
    .constantFrom(...bound)
    .map((binding) =>
      segments.map((part, i) => (part.startsWith('{') ? binding[segments[i - 1]!] : part)).join('/'),
    );
  return fc.oneof(separately, together);
}

/** Values an event id could name: this boot's (resumable or not), another's, and junk. */
const eventIds = (boot: string) => [
  `${boot}-0`,
  `${boot}-1`,
  `${boot}-99999999999999999999`,
  `${boot}--1`,
  `${boot}-1e3`,
  boot,
  'x-0',
];

/** A value of a query or header parameter, valid for its schema or not. */
function parameterValue(
  param: Operation['params']['query'][number],
  context: FuzzContext,
  onlyValid: boolean,
): fc.Arbitrary<string> {
  const valid = valueFor(param.schema, context.document).map(String);
  const known = /last-?event-?id/i.test(param.name)
    ? eventIds(context.boot)
    : /cursor/i.test(param.name)
      ? context.cursors
      : [];
  const value = known.length > 0 ? fc.oneof(valid, fc.constantFrom(...known)) : valid;
  return weighted(value, fc.string({ maxLength: 300 }), onlyValid);
}

const QUERY_EXTRAS = [
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'token=abc',
  '=',
  '&&',
  'a=%',
  'x=%ED%A0%80',
];

/** The query string: documented parameters (some missing, some repeated) and hostile extras. */
function query(op: Operation, context: FuzzContext, onlyValid: boolean): fc.Arbitrary<string> {
  const params = op.params.query.map((param) =>
    fc
      .option(
        fc.array(
          weighted(parameterValue(param, context, true).map(encodeLoosely), hostileQueryValue, onlyValid),
          {
            minLength: 1,
            maxLength: onlyValid ? 1 : 2,
          },
        ),
        { nil: undefined, freq: 2 },
      )
      .map((values) => (values ?? []).map((value) => `${param.name}=${value}`)),
  );
  const extras = onlyValid ? fc.constant([]) : fc.subarray(QUERY_EXTRAS, { maxLength: 2 });
  return fc.tuple(extras, ...params).map((lists) => {
    const pairs = lists.flat();
    return pairs.length > 0 ? `?${pairs.join('&')}` : '';
  });
}

/** How a request says who it is: the fuzzer's token, its session cookie, or something spoiled. */
function credentials(context: FuzzContext, onlyValid: boolean): fc.Arbitrary<Record<string, string>> {
  const { fuzzer, victims } = context.tokens;
  const victim = victims[0] ?? 'nobody-0123456789';
  const bearer = (value: string) => ({ authorization: value });
  const valid = fc.oneof(
    { weight: 6, arbitrary: fc.constant(bearer(`Bearer ${fuzzer}`)) },
    { weight: 1, arbitrary: fc.constant({ cookie: context.sessionCookie, 'x-requested-with': 'fetch' }) },
  );
  const spoiled = [
    '',
    'Bearer',
    'Bearer ',
    `bearer ${fuzzer}`,
    `Basic ${Buffer.from(`${fuzzer}:`).toString('base64')}`,
    `Bearer ${fuzzer} ${fuzzer}`,
    `Bearer ${fuzzer},Bearer x`,
    fuzzer,
    `Bearer  ${fuzzer}`,
    `Bearer ${victim}x`,
    `Bearer ${victim.slice(0, -1)}`,
    `Bearer ${victim.toUpperCase()}`,
    `Bearer "${victim}"`,
    `Bearer ${'x'.repeat(4_000)}`,
    'Bearer \xff\xfe',
    'Bearer null',
    'Bearer undefined',
    ...PROTOTYPE_KEYS.map((key) => `Bearer ${key}`),
  ];
  const hostile = fc.oneof(
    fc.constant({}),
    fc.constantFrom(...spoiled).map(bearer),
    fc.constant({ cookie: context.sessionCookie }),
    fc
      .constantFrom(
        'tessera_session=x',
        `${context.sessionCookie}x`,
        'tessera_session=',
        `${context.sessionCookie}; tessera_session=y`,
      )
      .map((cookie) => ({ cookie })),
  );
  return weighted(valid, hostile, onlyValid);
}

const NOISE: [string, string][] = [
  ['origin', 'http://evil.invalid'],
  ['sec-fetch-site', 'cross-site'],
  ['x-forwarded-proto', 'https'],
  ['x-forwarded-for', '127.0.0.1'],
  ['accept', 'text/event-stream'],
  ['content-encoding', 'gzip'],
  ['x-http-method-override', 'DELETE'],
];

/** Headers: credentials, the documented header parameters, and noise. */
function headers(
  op: Operation,
  context: FuzzContext,
  onlyValid: boolean,
): fc.Arbitrary<Record<string, string>> {
  const params = op.params.header.map((param) =>
    fc
      .option(parameterValue(param, context, onlyValid), { nil: undefined })
      .map((value) => (value === undefined ? [] : [[param.name, headerSafe(value)] as [string, string]])),
  );
  const noise = onlyValid ? fc.constant([]) : fc.subarray(NOISE, { maxLength: 2 });
  return fc
    .tuple(credentials(context, onlyValid), noise, ...params)
    .map(([auth, extra, ...rest]) => ({ ...Object.fromEntries([...extra, ...rest.flat()]), ...auth }));
}

/**
 * Requests for `op`: valid ones (to get past validation into the handler, with the fuzzer's ids and the
 * victims') and hostile ones, where each part may be spoiled.
 */
export function requests(op: Operation, context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const build = (onlyValid: boolean) =>
    fc
      .tuple(
        path(op, context, onlyValid),
        query(op, context, onlyValid),
        headers(op, context, onlyValid),
        bodies(op.body, context.document, context.limits, onlyValid),
      )
      .map(([p, q, h, b]) => new FuzzCase(op.method, `${p}${q}`, h, b));
  return fc.oneof({ weight: 1, arbitrary: build(true) }, { weight: 2, arbitrary: build(false) });
}

/** `path` with the fuzzer's own ids in its parameters (and `trick` in the one at segment `trickAt`). */
function filled(path: string, context: FuzzContext, trickAt?: number, trick?: string): string {
  const segments = path.split('/');
  return segments
    .map((part, i) => {
      if (!part.startsWith('{')) return part;
      return i === trickAt ? trick : (context.ids.own[segments[i - 1] ?? '']?.[0] ?? 'x');
    })
    .join('/');
}

/** The path tricks every run sends, whatever the seed, in each path parameter in turn. */
const CATALOGUE_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '..%2f..%2fme',
  'a/b',
  'a\\b',
  '%00',
  '%ED%A0%80',
  'x'.repeat(4_000),
  '__proto__',
  'constructor',
];

/**
 * What every run sends first, whatever the seed, to an operation otherwise valid (the fuzzer's token, its own
 * ids): each path trick in each parameter, and each kind of junk body.
 */
export function catalogue(op: Operation, context: FuzzContext): FuzzCase[] {
  const headers = { authorization: `Bearer ${context.tokens.fuzzer}` };
  const segments = op.path.split('/');
  const fill = (trickAt?: number, trick?: string) => filled(op.path, context, trickAt, trick);
  const tricks = segments.flatMap((part, i) =>
    part.startsWith('{')
      ? CATALOGUE_SEGMENTS.map((trick) => new FuzzCase(op.method, fill(i, trick), headers, undefined))
      : [],
  );
  const junk = op.body
    ? junkCatalogue(op.body.content['application/json'], context.document, context.limits).map(
        (body) => new FuzzCase(op.method, fill(), headers, body),
      )
    : [];
  return [...tricks, ...junk];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];

/** Each path of the document with each method it does not document (with the fuzzer's token and ids). */
export function strayMethods(operations: readonly Operation[], context: FuzzContext): FuzzCase[] {
  const headers = { authorization: `Bearer ${context.tokens.fuzzer}`, 'x-requested-with': 'fetch' };
  const paths = [...new Set(operations.map((op) => op.path))];
  return paths.flatMap((path) => {
    const documented = new Set(operations.filter((op) => op.path === path).map((op) => op.method));
    return METHODS.filter((method) => !documented.has(method)).map(
      (method) => new FuzzCase(method, filled(path, context), headers, undefined),
    );
  });
}
