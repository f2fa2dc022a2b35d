import { type DependencyContainer, NotFoundError, newId, StoreToken, TesseraError } from '@tessera/core';
import { z } from 'zod';
import { describeRule, describeSchedule } from './describe.ts';
import { nextFireAfter, settle } from './firing.ts';
import {
  type CreateTriggerInput,
  resolveEnd,
  resolveSchedule,
  TriggerInputError,
  type UpdateTriggerInput,
} from './inputs.ts';
import { runtimeOf, type TriggersRuntime } from './runtime.ts';
import { iso } from './time.ts';
import type { Trigger } from './trigger.ts';
import { TriggerRecords } from './trigger-records.ts';

export type TriggerOwner = { userId: string; conversationId: string };
export type TriggerChanges = Omit<UpdateTriggerInput, 'id'>;

/** Validates with a zod schema, reporting the first problem with all of them in plain words. */
function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const path = parsed.error.issues[0]?.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) ?? [];
  throw new TriggerInputError(path, z.prettifyError(parsed.error));
}

/**
 * Creating, reading, changing and deleting triggers: what the tools do for the model and what an app calls
 * for its own UI or API. Every change wakes the local scheduler.
 */
export class TriggerService {
  readonly #records: TriggerRecords;
  readonly #runtime: TriggersRuntime;

  constructor(records: TriggerRecords, runtime: TriggersRuntime) {
    this.#records = records;
    this.#runtime = runtime;
  }

  async create(input: CreateTriggerInput, owner: TriggerOwner): Promise<Trigger> {
    const valid = parse(this.#runtime.inputs.create, input);
    if ((await this.#records.listByUser(owner.userId)).length >= this.#runtime.maxTriggersPerUser) {
      throw this.#tooMany();
    }
    const now = this.#runtime.clock.now();
    const { schedule, first } = resolveSchedule(valid.schedule, this.#runtime);
    const endAt = valid.endAt === undefined ? undefined : resolveEnd(valid.endAt, schedule.timeZone, now);
    const trigger = settle(
      {
        id: newId('trg'),
        userId: owner.userId,
        conversationId: owner.conversationId,
        name: valid.name,
        instruction: valid.instruction,
        schedule,
        missedFires: valid.missedFires ?? 'skip',
        ...(endAt && { endAt }),
        ...(valid.maxRuns !== undefined && { maxRuns: valid.maxRuns }),
        status: 'active',
        nextFireAt: nextFireAfter({ schedule, endAt, maxRuns: valid.maxRuns }, first - 1, 0),
        runCount: 0,
        runs: [],
        createdAt: iso(now),
        updatedAt: iso(now),
      },
      now,
    );
    await this.#records.insert(trigger);
    // Counted again once stored: creates at the same moment all passed the count above. One that finds too
    // many takes itself back; the triggers kept were each counted after all the others kept were stored.
    if ((await this.#records.listByUser(owner.userId)).length > this.#runtime.maxTriggersPerUser) {
      await this.#records.delete(owner.userId, trigger.id);
      throw this.#tooMany();
    }
    this.#runtime.changes.notify();
    return trigger;
  }

  #tooMany(): TesseraError {
    const max = this.#runtime.maxTriggersPerUser;
    return new TesseraError(
      'too_many_triggers',
      `A user may have at most ${max} triggers, and you have as many: delete one you no longer need first.`,
    );
  }

  /** The user's triggers, optionally only those of one conversation. */
  async list(userId: string, filter: { conversationId?: string } = {}): Promise<Trigger[]> {
    const all = await this.#records.listByUser(userId);
    return filter.conversationId ? all.filter((t) => t.conversationId === filter.conversationId) : all;
  }

  async find(userId: string, id: string): Promise<Trigger | undefined> {
    return (await this.#records.get(userId, id))?.value;
  }

  async get(userId: string, id: string): Promise<Trigger> {
    const trigger = await this.find(userId, id);
    if (!trigger) throw notFound(id);
    return trigger;
  }

  /** Changes a trigger. A new schedule, end or resume plans the next fire from now. */
  async update(userId: string, id: string, changes: TriggerChanges): Promise<Trigger> {
    const valid = parse(this.#runtime.inputs.update, { ...changes, id });
    const now = this.#runtime.clock.now();
    const resolved = valid.schedule && resolveSchedule(valid.schedule, this.#runtime);
    const updated = await this.#records.change(userId, id, (current) => {
      const schedule = resolved?.schedule ?? current.schedule;
      const endAt =
        valid.endAt === undefined ? current.endAt : resolveEnd(valid.endAt, schedule.timeZone, now);
      const next: Trigger = {
        ...current,
        schedule,
        ...(endAt && { endAt }),
        ...(valid.name !== undefined && { name: valid.name }),
        ...(valid.instruction !== undefined && { instruction: valid.instruction }),
        ...(valid.missedFires !== undefined && { missedFires: valid.missedFires }),
        ...(valid.maxRuns !== undefined && { maxRuns: valid.maxRuns }),
      };
      const paused = valid.enabled === false || (valid.enabled === undefined && current.status === 'paused');
      if (paused) return settle({ ...next, status: 'paused', nextFireAt: undefined, queued: undefined }, now);
      const replan =
        resolved || valid.endAt !== undefined || valid.maxRuns !== undefined || current.status !== 'active';
      const nextFireAt = replan
        ? nextFireAfter(next, resolved ? resolved.first - 1 : now, current.runCount)
        : current.nextFireAt;
      return settle({ ...next, status: 'active', nextFireAt }, now);
    });
    if (!updated) throw notFound(id);
    this.#runtime.changes.notify();
    return updated;
  }

  pause(userId: string, id: string): Promise<Trigger> {
    return this.update(userId, id, { enabled: false });
  }

  resume(userId: string, id: string): Promise<Trigger> {
    return this.update(userId, id, { enabled: true });
  }

  /** Deletes a trigger: no fire starts after this (a prompt already running goes on). */
  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.#records.delete(userId, id);
    if (deleted) this.#runtime.changes.notify();
    return deleted;
  }

  /** When the trigger fires, in plain words. */
  describe(trigger: Trigger): string {
    const now = this.#runtime.clock.now();
    if (trigger.status === 'paused') return `${describeRule(trigger.schedule, now, trigger)} (paused)`;
    const next = trigger.nextFireAt ? Date.parse(trigger.nextFireAt) : undefined;
    return describeSchedule(trigger.schedule, next, now, trigger);
  }
}

const notFound = (id: string) =>
  new NotFoundError(`There is no trigger '${id}'. Use trigger.list to see the ids of the triggers.`);

/** The trigger service of a platform, from its service container (`platform.services`). */
export function triggerService(services: DependencyContainer): TriggerService {
  const records = new TriggerRecords(services.resolve(StoreToken).records);
  return new TriggerService(records, runtimeOf(services));
}
