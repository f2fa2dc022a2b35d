/** Cuts the middle out of a long text, keeping its start and its end (where errors usually are). */
export function boundText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const omitted = text.length - maxChars;
  const head = Math.ceil((maxChars * 2) / 3);
  return `${text.slice(0, head)}\n[… ${omitted} characters omitted …]\n${text.slice(text.length - (maxChars - head))}`;
}

/** Strings are not cut shorter than this while making arguments fit. */
const MIN_STRING_CHARS = 64;

/**
 * A call's arguments as the model is sent them again, bounded to about `maxChars` like a result, but still
 * JSON (some servers parse the arguments of the calls they are sent): the longest strings (a file's
 * content, say) are cut in the middle first; arguments that are long for another reason (many values)
 * become one object holding their cut text. The record keeps the full value.
 */
export function boundArguments(value: unknown, maxChars: number): string {
  const text = JSON.stringify(value) ?? '{}';
  if (text.length <= maxChars) return text;
  let longest = 0;
  const cut = (limit: number) =>
    JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner !== 'string') return inner;
      longest = Math.max(longest, inner.length);
      return inner.length > limit ? boundText(inner, limit) : inner;
    });
  cut(Number.POSITIVE_INFINITY); // measures the longest string
  for (
    let limit = Math.min(longest - 1, maxChars);
    limit >= MIN_STRING_CHARS;
    limit = Math.floor(limit / 2)
  ) {
    const shrunk = cut(limit);
    if (shrunk.length <= maxChars) return shrunk;
  }
  // Escaping can at most double the length of the text inside the string.
  return JSON.stringify({ truncated_arguments: boundText(text, Math.floor(maxChars / 2)) });
}
