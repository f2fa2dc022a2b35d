let lastMs = Number.NaN;
let lastIso = '';

/** The current time as ISO text, formatted once per millisecond (the loop asks for it several times a round). */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
