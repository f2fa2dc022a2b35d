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

/**
 * What the index keeps of a blueprint's steps: the first characters (and no word the cut runs through). With
 * the title, summary and tags (bounded by `NewBlueprint`) that is about 3,000 characters a blueprint, so one
 * blueprint's terms, the index's memory and the work of a search over it are bounded whatever the steps hold
 * (up to 20,000 characters). A procedure's first steps say what it is about; the rest is read with
 * `blueprints.get`.
 */
export const INDEXED_STEPS_CHARS = 2_000;

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
 * The first `maxChars` characters of `text`, without a word the cut runs through (it is not the word
 * written). Linear in `maxChars` at most: it walks back over that one word.
 */
export function readWithin(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  // `text[end]` is the first character left out: a separator there means the cut is between words.
  while (end > 0 && !SEPARATOR.test(text[end]!)) end--;
  return text.slice(0, end);
}

/**
 * The distinct terms a search of `text` looks up, in the order met, within `limits`: at most `maxTerms`,
 * each at most `maxTermLength` long, from the first `maxChars` characters (a word that runs past them is
 * left out, as it is not the word written). The work is linear in `maxChars` at most, and so is the memory.
 *
 * @example
 * searchTerms('Renew the TLS certificate!') // ['renew', 'tls', 'certificate']
 */
export function searchTerms(text: string, limits: Readonly<SearchLimits> = SEARCH_LIMITS): string[] {
  const terms = new Set<string>();
  for (const [word] of readWithin(text, limits.maxChars).matchAll(WORD)) {
    if (word.length > limits.maxTermLength) continue;
    const term = processTerm(word);
    // Lower case can be longer (İ is two code units in lower case): the bound holds for what is searched.
    if (term === null || term.length > limits.maxTermLength) continue;
    terms.add(term);
    if (terms.size === limits.maxTerms) break;
  }
  return [...terms];
}
