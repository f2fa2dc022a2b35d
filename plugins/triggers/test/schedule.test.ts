import { describe, expect, it } from 'vitest';
import { describeCron, describeRule, describeSchedule, nextOccurrence } from '../src/index.ts';
import { parseDateTime } from '../src/time.ts';

const NOW = Date.parse('2026-11-22T09:30:00Z');

describe('schedules in plain words', () => {
  it.each([
    ['0 9 * * 1-5', 'every weekday at 09:00'],
    ['0 9 * * MON', 'every Monday at 09:00'],
    ['30 18 * * 1,3,5', 'every Monday, Wednesday and Friday at 18:30'],
    ['0 10 * * 0,6', 'every Saturday and Sunday at 10:00'],
    ['0 7 * * *', 'every day at 07:00'],
    ['0 8 1 * *', 'on day 1 of every month at 08:00'],
    ['*/15 * * * *', 'every 15 minutes'],
    ['5 * * * *', 'every hour at minute 5'],
    ['0 9-17/2 * * *', "on the cron schedule '0 9-17/2 * * *'"],
  ])('%s reads "%s"', (expression, words) => {
    expect(describeCron(expression)).toBe(words);
  });

  it('names the time zone and the next fire in local time', () => {
    const schedule = { kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'Europe/Paris' } as const;
    const next = nextOccurrence(schedule, NOW);
    expect(describeSchedule(schedule, next, NOW)).toBe(
      'every weekday at 09:00 Europe/Paris, next on Mon 23 Nov 09:00',
    );
    const once = { kind: 'once', at: '2027-01-04T08:00:00.000Z', timeZone: 'Europe/Paris' } as const;
    expect(describeSchedule(once, Date.parse(once.at), NOW)).toBe(
      'once, on Mon 4 Jan 2027 09:00 Europe/Paris',
    );
  });
});

describe('schedules with an end, in plain words', () => {
  const every2 = {
    kind: 'interval',
    everyMinutes: 2,
    startAt: '2026-11-22T09:32:00.000Z',
    timeZone: 'UTC',
  } as const;
  const first = Date.parse(every2.startAt);

  it('reads a schedule that runs one time only as a one-off, not as what would repeat it', () => {
    expect(describeSchedule(every2, first, NOW, { maxRuns: 1 })).toBe('once, on Sun 22 Nov 09:32 UTC');
    const monday = { kind: 'cron', expression: '0 9 * * 1', timeZone: 'Europe/Paris' } as const;
    expect(describeSchedule(monday, nextOccurrence(monday, NOW), NOW, { maxRuns: 1 })).toBe(
      'once, on Mon 23 Nov 09:00 Europe/Paris',
    );
    // Run, or paused: no date to give, so the rule says it stops after one run.
    expect(describeSchedule(every2, undefined, NOW, { maxRuns: 1, runCount: 1 })).toBe(
      'every 2 minutes (UTC), one time only, with no fire left',
    );
    expect(describeRule(every2, NOW, { maxRuns: 1 })).toBe('every 2 minutes (UTC), one time only');
  });

  it('says how many runs and until when, and which run is the last', () => {
    const ends = { maxRuns: 3, endAt: '2026-11-23T18:00:00.000Z' };
    expect(describeSchedule(every2, first, NOW, ends)).toBe(
      'every 2 minutes (UTC), 3 times, until Mon 23 Nov 18:00, next on Sun 22 Nov 09:32',
    );
    expect(describeSchedule(every2, first + 240_000, NOW, { ...ends, runCount: 2 })).toBe(
      'every 2 minutes (UTC), 3 times, until Mon 23 Nov 18:00, last run on Sun 22 Nov 09:36',
    );
  });
});

describe('times', () => {
  it('reads local date-times in their time zone, on both sides of a DST change', () => {
    expect(new Date(parseDateTime('2026-03-07T09:00', 'America/New_York')).toISOString()).toBe(
      '2026-03-07T14:00:00.000Z',
    );
    expect(new Date(parseDateTime('2026-03-09T09:00', 'America/New_York')).toISOString()).toBe(
      '2026-03-09T13:00:00.000Z',
    );
    expect(parseDateTime('2026-03-09T09:00:00+01:00', 'America/New_York')).toBe(
      Date.parse('2026-03-09T08:00:00Z'),
    );
  });

  it('refuses impossible dates and malformed text', () => {
    expect(() => parseDateTime('2026-02-30T09:00', 'UTC')).toThrow("'2026-02-30T09:00' is not a real date.");
    expect(() => parseDateTime('next monday', 'UTC')).toThrow(/is not a date-time like/);
  });

  it('keeps interval fires on their grid, whenever it is asked', () => {
    const every = {
      kind: 'interval',
      everyMinutes: 30,
      startAt: '2026-11-22T10:00:00.000Z',
      timeZone: 'UTC',
    } as const;
    const next = (at: string) => new Date(nextOccurrence(every, Date.parse(at))!).toISOString();
    expect(next('2026-11-22T09:00:00Z')).toBe('2026-11-22T10:00:00.000Z');
    expect(next('2026-11-22T10:00:00Z')).toBe('2026-11-22T10:30:00.000Z');
    expect(next('2026-11-25T17:47:12Z')).toBe('2026-11-25T18:00:00.000Z');
  });
});
