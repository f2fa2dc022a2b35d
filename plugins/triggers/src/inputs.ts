import { TesseraError } from '@tessera/core';
import { z } from 'zod';
import type { Clock } from './clock.ts';
import { cronOf, nextOccurrence, type Schedule } from './schedule.ts';
import { canonicalTimeZone, formatInstant, iso, parseDateTime } from './time.ts';
import { MissedFirePolicy } from './trigger.ts';

/**
 * What the model (or the app) writes to create or change a trigger, and its resolution into a stored
 * schedule. The same checks run as zod refinements (so the model reads its mistakes as tool errors it can
 * fix) and again when the trigger is written (time may have passed while the user decided).
 */

export type InputContext = { clock: Clock; defaultTimeZone: string };

/** A trigger input that cannot be used; `path` points at the field, as in a zod issue. */
export class TriggerInputError extends TesseraError {
  readonly path: (string | number)[];
  constructor(path: (string | number)[], message: string) {
    super('invalid_input', message);
    this.path = path;
  }
}

const LOCAL_EXAMPLE = "a local date-time such as '2025-11-24T09:00'";

export function scheduleInput(defaultTimeZone: string) {
  const timeZone = z
    .string()
    .optional()
    .describe(`IANA time zone, e.g. 'Europe/Paris'. Default: ${defaultTimeZone}.`);
  return z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('cron'),
      expression: z
        .string()
        .describe(
          "Five cron fields: minute hour day-of-month month day-of-week, e.g. '0 9 * * 1-5' for 09:00 on weekdays, '0 9 * * 1' for Mondays at 09:00.",
        ),
      timeZone,
    }),
    z.object({
      kind: z.literal('once'),
      at: z.string().describe(`When to fire: ${LOCAL_EXAMPLE}, in the time zone.`),
      timeZone,
    }),
    z.object({
      kind: z.literal('interval'),
      everyMinutes: z.number().int().min(1).max(525_600).describe('Minutes between fires (at least 1).'),
      startAt: z
        .string()
        .optional()
        .describe(`The first fire, ${LOCAL_EXAMPLE}. Default: one interval from now.`),
      timeZone,
    }),
  ]);
}
export type ScheduleInput = z.infer<ReturnType<typeof scheduleInput>>;

function timeZoneOf(input: { timeZone?: string | undefined }, fallback: string, path: string[]): string {
  const name = input.timeZone ?? fallback;
  const canonical = canonicalTimeZone(name);
  if (!canonical) {
    throw new TriggerInputError(
      [...path, 'timeZone'],
      `Unknown time zone '${name}'. Use an IANA name such as 'Europe/Paris', 'America/New_York' or 'UTC'.`,
    );
  }
  return canonical;
}

function instantIn(text: string, timeZone: string, path: (string | number)[], now: number): number {
  let instant: number;
  try {
    instant = parseDateTime(text, timeZone);
  } catch (error) {
    throw new TriggerInputError(path, (error as Error).message);
  }
  if (instant <= now) {
    throw new TriggerInputError(
      path,
      `${text} (${formatInstant(instant, timeZone, now)} ${timeZone}) is in the past: it is now ${formatInstant(now, timeZone, now)} there. Give a future date-time.`,
    );
  }
  return instant;
}

/** The stored schedule and its first fire, or a `TriggerInputError` the model can act on. */
export function resolveSchedule(
  input: ScheduleInput,
  context: InputContext,
  path: string[] = ['schedule'],
): { schedule: Schedule; first: number } {
  const now = context.clock.now();
  const timeZone = timeZoneOf(input, context.defaultTimeZone, path);
  let schedule: Schedule;
  switch (input.kind) {
    case 'cron': {
      const expression = input.expression.trim().replace(/\s+/g, ' ');
      try {
        cronOf(expression, timeZone);
      } catch (error) {
        const reason = (error as Error).message.replace(/^CronPattern:\s*/, '');
        throw new TriggerInputError(
          [...path, 'expression'],
          `'${input.expression}' is not a valid cron expression (${reason}). Use five fields: minute hour day-of-month month day-of-week, e.g. '0 9 * * 1-5' for 09:00 on weekdays.`,
        );
      }
      schedule = { kind: 'cron', expression, timeZone };
      break;
    }
    case 'once':
      schedule = { kind: 'once', at: iso(instantIn(input.at, timeZone, [...path, 'at'], now)), timeZone };
      break;
    case 'interval': {
      const start = input.startAt
        ? instantIn(input.startAt, timeZone, [...path, 'startAt'], now)
        : now + input.everyMinutes * 60_000;
      schedule = { kind: 'interval', everyMinutes: input.everyMinutes, startAt: iso(start), timeZone };
      break;
    }
  }
  const first = schedule.kind === 'interval' ? Date.parse(schedule.startAt) : nextOccurrence(schedule, now);
  if (first === undefined) {
    throw new TriggerInputError(path, 'This schedule never fires after now. Check the date fields.');
  }
  return { schedule, first };
}

/** The end date as an instant, checked to be in the future. */
export function resolveEnd(endAt: string, timeZone: string, now: number): string {
  return iso(instantIn(endAt, timeZone, ['endAt'], now));
}

const fields = (defaultTimeZone: string) => ({
  name: z.string().min(1).max(80).describe("A short label the user will recognise, e.g. 'Sales report'."),
  instruction: z
    .string()
    .min(1)
    .max(4000)
    .describe(
      "What you should do when it fires, written to yourself, e.g. 'Remind the user to review the sales report.'",
    ),
  schedule: scheduleInput(defaultTimeZone),
  missedFires: MissedFirePolicy.optional().describe(
    "If the server was down when it was due: 'skip' (default) waits for the next time, 'once' fires once as soon as it is back.",
  ),
  endAt: z.string().optional().describe(`No fires after this, ${LOCAL_EXAMPLE} in the schedule's time zone.`),
  maxRuns: z.number().int().positive().optional().describe('Stop after this many runs.'),
});

/** Runs the resolution inside a zod refinement, turning its error into an issue on the right field. */
function refineWith(check: () => void, ctx: z.RefinementCtx): void {
  try {
    check();
  } catch (error) {
    if (!TriggerInputError.is(error)) throw error;
    ctx.addIssue({ code: 'custom', path: error.path, message: error.message });
  }
}

export function createTriggerInput(context: InputContext) {
  return z.object(fields(context.defaultTimeZone)).superRefine((input, ctx) =>
    refineWith(() => {
      const { schedule, first } = resolveSchedule(input.schedule, context);
      if (input.endAt !== undefined) {
        const end = Date.parse(resolveEnd(input.endAt, schedule.timeZone, context.clock.now()));
        if (end < first) {
          throw new TriggerInputError(['endAt'], 'The end is before the first fire: it would never run.');
        }
      }
    }, ctx),
  );
}
export type CreateTriggerInput = z.infer<ReturnType<typeof createTriggerInput>>;

export function updateTriggerInput(context: InputContext) {
  const { name, instruction, schedule, missedFires, endAt, maxRuns } = fields(context.defaultTimeZone);
  return z
    .object({
      id: z.string().describe('The id of the trigger, from trigger.list.'),
      name: name.optional(),
      instruction: instruction.optional(),
      schedule: schedule.optional(),
      missedFires,
      endAt,
      maxRuns,
      enabled: z.boolean().optional().describe('false pauses the trigger, true resumes it.'),
    })
    .superRefine((input, ctx) =>
      refineWith(() => {
        const zone = input.schedule
          ? resolveSchedule(input.schedule, context).schedule.timeZone
          : context.defaultTimeZone;
        if (input.endAt !== undefined) resolveEnd(input.endAt, zone, context.clock.now());
      }, ctx),
    );
}
export type UpdateTriggerInput = z.infer<ReturnType<typeof updateTriggerInput>>;
