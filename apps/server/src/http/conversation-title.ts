const MAX = 60;

/** A conversation's title from its first message: the first line, without Markdown marks, cut at a word. */
export function titleFrom(input: string): string | undefined {
  const line = input
    .split('\n')
    .map((l) =>
      l
        .replace(/^[\s#>*\-`]+/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .find((l) => l.length > 0);
  if (!line) return undefined;
  if (line.length <= MAX) return line;
  const cut = line.slice(0, MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}
