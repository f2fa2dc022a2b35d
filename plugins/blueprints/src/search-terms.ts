/**
 * What one search reads of the text it is given, whatever that text is: a prompt's whole input goes through
 * here every time a new one arrives, so these bounds, not the input, decide what a search costs.
 */
export type SearchLimits = {
  /** Characters (UTF-16 code units) read from the start of the text; the rest is not searched. */
  maxChars: number;
  /** Distinct terms searched: the first ones met, repeats and common words not counted. */
  maxTerms: number;
  /**
   * The longest term searched, in UTF-16 code units. A longer "word" (a pasted hash, a base64 blob, one
   * long run of letters) matches nothing a person would call relevant and is skipped; typo tolerance, whose
   * work grows with a term's length, only ever sees terms up to this length.
   */
  maxTermLength: number;
};

/** The bounds every search of the plugin reads within (the automatic one of each prompt and the tool's). */
export const SEARCH_LIMITS: Readonly<SearchLimits> = Object.freeze({
  maxChars: 10_000,
  maxTerms: 32,
  maxTermLength: 40,
});

// Words too common to say anything about relevance; leaving them out also keeps searches fast.
const STOP_WORDS = new Set(
  'a an and are as at be but by can do for from has have how i in is it its me my of on or our please the this to us we what when with you your'.split(
    ' ',
  ),
);

/** A word as the index keeps it: lower case, or `null` for a word too common to search. */
export const processTerm = (term: string): string | null => {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
};

const SEPARATOR = /[\n\r\p{Z}\p{P}]/u;
// The complement of MiniSearch's tokenizer (it splits on /[\n\r\p{Z}\p{P}]+/u): a query's words are the index's.
const WORD = /[^\n\r\p{Z}\p{P}]+/gu;

/**
 * The distinct terms a search of `text` looks up, in the order met, within `limits`: at most `maxTerms`,
 * each at most `maxTermLength` long, from the first `maxChars` characters (a word that runs past them is
 * left out, as it is not the word written). The work is linear in `maxChars` at most, and so is the memory.
 *
 * @example
 * searchTerms('Renew the TLS certificate!') // ['renew', 'tls', 'certificate']
 */
export function searchTerms(text: string, limits: Readonly<SearchLimits> = SEARCH_LIMITS): string[] {
  const cut = text.length > limits.maxChars;
  const read = cut ? text.slice(0, limits.maxChars) : text;
  const runsPastCut = cut && !SEPARATOR.test(text[limits.maxChars]!);
  const terms = new Set<string>();
  for (const match of read.matchAll(WORD)) {
    const word = match[0];
    if (runsPastCut && match.index + word.length === read.length) break;
    if (word.length > limits.maxTermLength) continue;
    const term = processTerm(word);
    // Lower case can be longer (İ is two code units in lower case): the bound holds for what is searched.
    if (term === null || term.length > limits.maxTermLength) continue;
    terms.add(term);
    if (terms.size === limits.maxTerms) break;
  }
  return [...terms];
}
