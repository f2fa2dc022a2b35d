const MAX = 60;

/**
 * The first character that is not a space or a Markdown mark: the title is the rest of its line (whatever
 * came before it on that line, and every line before, is spaces and marks only).
 */
const CONTENT = /[^\s#>*\-`]/;

/**
 * A conversation's title from its first message: the first line, without Markdown marks, cut at a word. The
 * work is the first line with content, found by one search, not a pass over every line of a long message.
 */
export function titleFrom(input: string): string | undefined {
  const first = input.search(CONTENT);
  if (first === -1) return undefined;
  const end = input.indexOf('\n', first);
  const line = input
    .slice(first, end === -1 ? undefined : end)
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= MAX) return line;
  const cut = line.slice(0, MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}
