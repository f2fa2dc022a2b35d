/** Time-zone arithmetic with the platform's Intl data: no extra dependency, and DST rules stay current. */

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    partsFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The IANA name as Intl spells it (`europe/paris` → `Europe/Paris`), or undefined if it is unknown. */
export function canonicalTimeZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallTime(instant: number, timeZone: string): WallTime {
  const fields: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return fields as WallTime;
}

const wallAsUtc = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** Matches `2025-11-24T09:00`, with optional seconds; no offset (the time zone gives it). */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** A date-time that carries its own offset: `...Z` or `...+01:00`. */
const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant of a date-time written as on a wall clock in `timeZone` (or with an explicit offset).
 * Throws with a readable message for a malformed text, an impossible date (30 February) or a local time
 * that does not exist because the clocks move forward that night.
 */
export function parseDateTime(text: string, timeZone: string): number {
  if (OFFSET_DATE_TIME.test(text)) {
    const instant = Date.parse(text);
    if (Number.isNaN(instant)) throw new Error(`'${text}' is not a valid date-time.`);
    return instant;
  }
  const match = LOCAL_DATE_TIME.exec(text);
  if (!match) {
    throw new Error(`'${text}' is not a date-time like '2025-11-24T09:00' (local time in the time zone).`);
  }
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((n) => Number(n ?? 0));
  const target = Date.UTC(year, month - 1, day, hour, minute, second);
  const normal = new Date(target);
  // Date.UTC rolls 30 February over into March: a date that does not come back unchanged is not real.
  if (
    normal.getUTCMonth() !== month - 1 ||
    normal.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new Error(`'${text}' is not a real date.`);
  }
  // The offset at a first guess, then at the corrected guess: right on both sides of a DST change.
  let instant = target - (wallAsUtc(wallTime(target, timeZone)) - target);
  instant = target - (wallAsUtc(wallTime(instant, timeZone)) - instant);
  if (wallAsUtc(wallTime(instant, timeZone)) !== target) {
    throw new Error(
      `${text} does not exist in ${timeZone}: the clocks move forward that night. Pick another time.`,
    );
  }
  return instant;
}

const displayFormatters = new Map<string, Intl.DateTimeFormat>();

/** `Mon 24 Nov 09:00` in the time zone; the year is added when it is not the year of `now`. */
export function formatInstant(instant: number, timeZone: string, now: number): string {
  // The plugin's context formats "now" before every model call: the same minute is formatted once.
  const minute = Math.floor(instant / 60_000);
  if (instant === now && lastNow.timeZone === timeZone && lastNow.minute === minute) return lastNow.text;
  const withYear = instant !== now && wallTime(instant, timeZone).year !== wallTime(now, timeZone).year;
  const key = `${timeZone}|${withYear}`;
  let formatter = displayFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      ...(withYear && { year: 'numeric' }),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    displayFormatters.set(key, formatter);
  }
  const p: Record<string, string> = {};
  for (const part of formatter.formatToParts(instant)) p[part.type] = part.value;
  const text = `${p.weekday} ${p.day} ${p.month}${withYear ? ` ${p.year}` : ''} ${p.hour}:${p.minute}`;
  if (instant === now) lastNow = { timeZone, minute, text };
  return text;
}

let lastNow = { timeZone: '', minute: Number.NaN, text: '' };

export const iso = (instant: number): string => new Date(instant).toISOString();
