import type { Schedule } from './schedule.ts';
import { formatInstant } from './time.ts';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_ABBREVIATIONS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const NUMBER = /^\d+$/;

const day = (token: string): number | undefined => {
  const index = DAY_ABBREVIATIONS.indexOf(token.toUpperCase());
  if (index >= 0) return index;
  return NUMBER.test(token) && Number(token) <= 7 ? Number(token) % 7 : undefined;
};

/** The days a day-of-week field lists (`1-5`, `MON,THU`, `0`), or undefined for steps and other forms. */
function daysOf(field: string): number[] | undefined {
  const days = new Set<number>();
  for (const item of field.split(',')) {
    const [from, to, ...rest] = item.split('-');
    const start = day(from ?? '');
    const end = to === undefined ? start : day(to);
    if (start === undefined || end === undefined || rest.length > 0) return undefined;
    // `5-0` would wrap; `1-7` ends on Sunday, which `% 7` turned into 0.
    const last = end < start ? end + 7 : end;
    for (let d = start; d <= last; d++) days.add(d % 7);
  }
  return [...days].sort((a, b) => a - b);
}

const list = (words: string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

function describeDays(field: string): string | undefined {
  if (field === '*') return 'every day';
  const days = daysOf(field);
  if (!days) return undefined;
  const key = days.join(',');
  if (key === '1,2,3,4,5') return 'every weekday';
  if (key === '0,6') return 'every Saturday and Sunday';
  if (key === '0,1,2,3,4,5,6') return 'every day';
  return `every ${list(days.map((d) => DAY_NAMES[d]!))}`;
}

const pad = (n: string) => n.padStart(2, '0');

/** Common cron shapes in plain words; anything else is quoted as it is. */
export function describeCron(expression: string): string {
  const fields = expression.trim().split(/\s+/);
  const [minute = '', hour = '', dayOfMonth = '', month = '', dayOfWeek = ''] = fields;
  const quoted = `on the cron schedule '${expression.trim()}'`;
  if (fields.length !== 5) return quoted;
  if (NUMBER.test(minute) && NUMBER.test(hour) && month === '*') {
    const at = `at ${pad(hour)}:${pad(minute)}`;
    if (dayOfMonth === '*') {
      const days = describeDays(dayOfWeek);
      return days ? `${days} ${at}` : quoted;
    }
    if (NUMBER.test(dayOfMonth) && dayOfWeek === '*') return `on day ${dayOfMonth} of every month ${at}`;
    return quoted;
  }
  if (hour === '*' && dayOfMonth === '*' && month === '*' && dayOfWeek === '*') {
    if (minute === '*') return 'every minute';
    if (NUMBER.test(minute)) return `every hour at minute ${Number(minute)}`;
    const step = /^\*\/(\d+)$/.exec(minute)?.[1];
    if (step) return `every ${step} minutes`;
  }
  return quoted;
}

function describeEvery(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? 'every day' : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`;
  return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}

/** How a trigger ends besides its schedule: a date, or a number of runs (of which `runCount` are done). */
export type ScheduleEnds = {
  endAt?: string | undefined;
  maxRuns?: number | undefined;
  runCount?: number | undefined;
};

/** Whether the schedule fires at most once: a `once`, or any schedule its trigger stops after one run. */
export const firesOnce = (schedule: Schedule, ends: ScheduleEnds = {}): boolean =>
  schedule.kind === 'once' || ends.maxRuns === 1;

function describeEnds(ends: ScheduleEnds, timeZone: string, now: number): string {
  const { endAt, maxRuns } = ends;
  return [
    maxRuns !== undefined && (maxRuns === 1 ? 'one time only' : `${maxRuns} times`),
    endAt !== undefined && `until ${formatInstant(Date.parse(endAt), timeZone, now)}`,
  ]
    .filter(Boolean)
    .map((end) => `, ${end}`)
    .join('');
}

/** The rule of a schedule in words, with its time zone and its ends: "every weekday at 09:00 Europe/Paris". */
export function describeRule(schedule: Schedule, now: number, ends: ScheduleEnds = {}): string {
  const tz = schedule.timeZone;
  switch (schedule.kind) {
    case 'once':
      return `once, on ${formatInstant(Date.parse(schedule.at), tz, now)} ${tz}`;
    case 'cron':
      return `${describeCron(schedule.expression)} ${tz}${describeEnds(ends, tz, now)}`;
    case 'interval':
      return `${describeEvery(schedule.everyMinutes)} (${tz})${describeEnds(ends, tz, now)}`;
  }
}

/**
 * When a schedule fires, in words a user can check before approving:
 * "every weekday at 09:00 Europe/Paris, next on Mon 24 Nov 09:00". A schedule that runs one time only
 * reads as the one-off it is: "once, on Mon 24 Nov 09:00 Europe/Paris", not "every minute".
 */
export function describeSchedule(
  schedule: Schedule,
  next: number | undefined,
  now: number,
  ends: ScheduleEnds = {},
): string {
  const tz = schedule.timeZone;
  if (next !== undefined && firesOnce(schedule, ends)) {
    return `once, on ${formatInstant(next, tz, now)} ${tz}`;
  }
  const rule = describeRule(schedule, now, ends);
  if (schedule.kind === 'once') return `${rule}, already past`;
  if (next === undefined) return `${rule}, with no fire left`;
  const last = ends.maxRuns !== undefined && ends.maxRuns - (ends.runCount ?? 0) === 1;
  return `${rule}, ${last ? 'last run' : 'next'} on ${formatInstant(next, tz, now)}`;
}
