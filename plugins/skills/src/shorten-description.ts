/** The Agent Skills limit on a skill's description, in characters. */
export const MAX_DESCRIPTION = 1024;

/**
 * A description cut to at most `max` characters for the catalogue: at the last word boundary that fits,
 * with an ellipsis, so the model never sees half a word. Text within the limit is returned unchanged.
 */
export function shortenDescription(text: string, max = MAX_DESCRIPTION): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1); // one character for the ellipsis
  const boundary = room.search(/\s\S*$/);
  // A single word longer than half the limit is cut inside it rather than dropped whole.
  const cut = boundary > max / 2 ? room.slice(0, boundary) : room.replace(/[\uD800-\uDBFF]$/, '');
  return `${cut.replace(/[\s,;:.\u2014-]+$/, '')}…`;
}
