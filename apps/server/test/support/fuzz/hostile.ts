import fc from 'fast-check';

/**
 * Hostile values, each as it goes on the wire: path segments and query values already percent-encoded
 * (or deliberately not), header values in the Latin-1 an HTTP header can carry.
 */

/** Keys that mean something to a JavaScript object. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
];

/** Characters that break naive code: controls, invisible and direction marks, surrogates, emoji, BOM. */
export const EDGE_CHARACTERS = [
  '\u0000',
  '\u0007',
  '\n',
  '\r\n',
  '\t',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2028',
  '\u2029',
  '\u2066',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  'e\u0301',
  '\u0130',
  'ß',
  'ﷺ',
  '\u{10ffff}',
  '𝕏',
  '%',
  '%00',
  '\\',
  '"',
  "'",
  '<script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder, as text, is the point
  '${x}',
  '{{x}}',
  '../',
];

/** Strings of edge characters and ordinary ones, full Unicode (lone surrogates included). */
export const edgeString = (maxLength = 40) =>
  fc.string({
    unit: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...EDGE_CHARACTERS) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.nat(0xffff).map((code) => String.fromCharCode(code)) },
    ),
    maxLength,
  });

/** Percent-encodes every UTF-16 unit as it stands: a lone surrogate becomes its (invalid) CESU-8 bytes. */
export function encodeLoosely(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** Path segments that try to leave the route, confuse decoding, or name an object's own machinery. */
export const HOSTILE_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '..%2f..%2fme',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2f',
  '%2F..',
  'a/b',
  '../me',
  '..;',
  '%5c..%5c',
  '..\\..\\me',
  'a\\b',
  '%00',
  '%',
  '%zz',
  '%%32%65',
  '%25',
  '%C0%AE%C0%AE',
  '%C0%80',
  '%ED%A0%80',
  '%FF',
  '%EF%BB%BF',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%20',
  '+',
  '*',
  ';',
  '~',
  '$',
  '%3F',
  '%23',
  '?',
  '#',
  'x'.repeat(100),
  'x'.repeat(101),
  'x'.repeat(4_000),
  ...PROTOTYPE_KEYS,
];

/** A path segment: a hostile one, or a loosely encoded string of edge characters. */
export const hostileSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 1, arbitrary: edgeString(20).map(encodeLoosely) },
);

/** Query values: numbers that are not, sizes out of range, odd escapes. */
export const HOSTILE_QUERY_VALUES = [
  '',
  '-1',
  '0',
  '1.5',
  '1e3',
  '201',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  '%201',
  'true',
  'null',
  '[]',
  '%7B%7D',
  '%00',
  '%',
  '%ED%A0%80',
  'x'.repeat(201),
  'x'.repeat(3_000),
  ...PROTOTYPE_KEYS,
];

export const hostileQueryValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_QUERY_VALUES) },
  { weight: 1, arbitrary: edgeString(20).map(encodeLoosely) },
);

/** What a header can carry (Node refuses to send anything else): tab, printable ASCII and Latin-1. */
export const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

/** JSON values of every type, for a property that expects another. */
export const ANY_JSON_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -0,
  '',
  'x',
  '0',
  'true',
  [],
  [null],
  [''],
  {},
  { '': '' },
  [[[]]],
];

/** The JSON type of a value, as JSON Schema names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
