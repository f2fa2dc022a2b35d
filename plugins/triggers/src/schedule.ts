import { Cron } from 'croner';
import { z } from 'zod';

/** When a trigger fires, as stored: instants are ISO strings in UTC, time zones canonical IANA names. */
export const Schedule = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('cron'),
    /** Five fields: minute hour day-of-month month day-of-week. */
    expression: z.string(),
    timeZone: z.string(),
  }),
  z.object({ kind: z.literal('once'), at: z.iso.datetime(), timeZone: z.string() }),
  z.object({
    kind: z.literal('interval'),
    everyMinutes: z.number().int().positive(),
    /** The first fire; later ones follow on the same grid, so a late fire never shifts the next ones. */
    startAt: z.iso.datetime(),
    timeZone: z.string(),
  }),
]);
export type Schedule = z.infer<typeof Schedule>;

const crons = new Map<string, Cron>();

/** A parsed cron (croner: time zones and DST); parsing throws a readable error for a bad expression. */
export function cronOf(expression: string, timeZone: string): Cron {
  const key = `${timeZone} ${expression}`;
  let cron = crons.get(key);
  if (!cron) {
    // No callback: croner only computes times, it never schedules anything itself.
    cron = new Cron(expression, { timezone: timeZone, mode: '5-part' });
    if (crons.size >= 1000) crons.clear();
    crons.set(key, cron);
  }
  return cron;
}

/** The first fire strictly after `after`, or undefined when the schedule has no more. */
export function nextOccurrence(schedule: Schedule, after: number): number | undefined {
  switch (schedule.kind) {
    case 'cron':
      return cronOf(schedule.expression, schedule.timeZone).nextRun(new Date(after))?.getTime();
    case 'once': {
      const at = Date.parse(schedule.at);
      return at > after ? at : undefined;
    }
    case 'interval': {
      const start = Date.parse(schedule.startAt);
      if (after < start) return start;
      const every = schedule.everyMinutes * 60_000;
      return start + (Math.floor((after - start) / every) + 1) * every;
    }
  }
}
