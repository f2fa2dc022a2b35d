import { TesseraError } from '../errors.ts';

/** Where a search hit's text is: the conversation's title, a prompt's input, or one of its text outputs. */
export type SearchHitField = 'title' | 'input' | 'output';

/**
 * A piece of the matched text, with the matched words as `[start, end)` offsets into `text` (UTF-16 code
 * units, as JavaScript strings index). Plain text, never markup: a UI renders the ranges itself.
 */
export type SearchSnippet = { text: string; highlights: [number, number][] };

export type SearchHit = {
  conversationId: string;
  /** The prompt whose input or output matched (absent for a title). */
  promptId?: string;
  /** The conversation's title, if it has one. */
  title?: string;
  field: SearchHitField;
  snippet: SearchSnippet;
};

/** Bounds of a search query: longer queries, or more words, are refused (`invalid_input`). */
export const SEARCH_QUERY_MAX_CHARS = 200;
export const SEARCH_QUERY_MAX_TERMS = 16;
/** The largest page of hits, and the deepest a cursor may go (bounded work per call). */
export const SEARCH_PAGE_MAX = 100;
export const SEARCH_OFFSET_MAX = 10_000;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a query, lower-cased, deduplicated, in order: what a text must all contain (as whole words,
 * case-insensitively) to match. Everything else in the query (punctuation, operators, quotes) is ignored,
 * so any string is a query. Refuses a query over 200 characters or 16 words.
 */
export function searchTerms(query: string): string[] {
  if (query.length > SEARCH_QUERY_MAX_CHARS) {
    throw new TesseraError(
      'invalid_input',
      `A search query has at most ${SEARCH_QUERY_MAX_CHARS} characters, not ${query.length}.`,
    );
  }
  const terms = [...new Set(Array.from(query.toLowerCase().matchAll(WORD), (m) => m[0]))];
  if (terms.length > SEARCH_QUERY_MAX_TERMS) {
    throw new TesseraError(
      'invalid_input',
      `A search query has at most ${SEARCH_QUERY_MAX_TERMS} words, not ${terms.length}.`,
    );
  }
  return terms;
}

/** The word occurrences of `text` that are one of `terms`, as `[start, end)` offsets. */
function occurrences(text: string, terms: readonly string[]): [number, number][] {
  const wanted = new Set(terms);
  const found: [number, number][] = [];
  for (const match of text.matchAll(WORD)) {
    if (wanted.has(match[0].toLowerCase())) found.push([match.index, match.index + match[0].length]);
  }
  return found;
}

/** True when `text` contains every term as a word, case-insensitively. */
export function matchesSearch(text: string | undefined, terms: readonly string[]): text is string {
  if (!text || terms.length === 0) return false;
  const words = new Set(Array.from(text.toLowerCase().matchAll(WORD), (m) => m[0]));
  return terms.every((t) => words.has(t));
}

const SNIPPET_CHARS = 160;

/**
 * A window of about 160 characters of `text` around its first matched word, with every matched word in it
 * highlighted; '…' marks text cut at either end (the offsets count it).
 */
export function searchSnippet(text: string, terms: readonly string[]): SearchSnippet {
  const all = occurrences(text, terms);
  const first = all[0]?.[0] ?? 0;
  let start = Math.max(0, first - 40);
  // Start at a word's beginning, not in its middle.
  while (start > 0 && start < first && /[\p{L}\p{N}]/u.test(text[start - 1]!)) start++;
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const prefix = start > 0 ? '…' : '';
  const body = text.slice(start, end).replace(/\s+/g, ' ');
  // Whitespace runs collapse: offsets are found again in the collapsed text.
  const shown = `${prefix}${body}${end < text.length ? '…' : ''}`;
  const highlights = occurrences(shown, terms);
  return { text: shown, highlights };
}

/** A search page's limit (20 unless given; 1 to 100) and offset (from the store's cursor). */
export function searchPage(options: { limit?: number; cursor?: string } = {}): {
  limit: number;
  offset: number;
} {
  const limit = options.limit ?? 20;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > SEARCH_PAGE_MAX) {
    throw new TesseraError(
      'invalid_input',
      `A search page holds 1 to ${SEARCH_PAGE_MAX} hits, not ${limit}.`,
    );
  }
  const cursor = options.cursor;
  if (cursor === undefined || cursor === '') return { limit, offset: 0 };
  const match = /^s(\d{1,6})$/.exec(cursor);
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!(offset > 0 && offset <= SEARCH_OFFSET_MAX)) {
    throw new TesseraError(
      'invalid_input',
      `'${cursor.slice(0, 200)}' is not a cursor of this search: use the nextCursor of the previous page.`,
    );
  }
  return { limit, offset };
}

/** The cursor of the page after one that started at `offset` and held `limit` hits. */
export const searchCursor = (offset: number, limit: number): string | undefined =>
  offset + limit <= SEARCH_OFFSET_MAX ? `s${offset + limit}` : undefined;
