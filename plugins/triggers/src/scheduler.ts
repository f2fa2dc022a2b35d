import {
  ConflictError,
  ConversationBusyError,
  errorMessage,
  isFinalState,
  NotFoundError,
  newId,
  type Platform,
  type Prompt,
  type TesseraEvent,
} from '@tessera/core';
import type { Clock } from './clock.ts';
import { claimDue, endTrigger, type FirePolicy, requeue, takeQueued, updateRun } from './firing.ts';
import { runtimeOf, type TriggersRuntime } from './runtime.ts';
import type { RunOutcome, Trigger } from './trigger.ts';
import { triggerIdOf } from './trigger-id-of.ts';
import { type TriggerRecord, TriggerRecords } from './trigger-records.ts';

/** What the scheduler uses of a platform. */
export type SchedulerPlatform = Pick<Platform, 'start' | 'events' | 'store' | 'services'>;

export type SchedulerOptions = {
  /**
   * The longest sleep (default 1 minute). The scheduler wakes at the next due fire, at once when this
   * process changes a trigger, and at least this often to see changes made by other processes.
   */
  rescanEveryMs?: number;
  /** A fire found later than this (default 5 minutes) was missed during downtime: the trigger's policy applies. */
  lateGraceMs?: number;
  /**
   * A fire claimed this long ago (default 30 s) whose prompt does not exist was claimed by a process that
   * stopped before starting it: it is started now, with the prompt id chosen when it was claimed.
   */
  restartAfterMs?: number;
  /** Failures that stop one fire but not the scheduler (default: `console.error`). */
  onError?: (error: unknown) => void;
};

type ConversationState = 'free' | 'busy' | 'gone';

const NO_CONVERSATION = 'Not started: its conversation no longer exists.';

const outcomeOf = (prompt: Pick<Prompt, 'state'>): RunOutcome =>
  prompt.state === 'completed' || prompt.state === 'cancelled' ? prompt.state : 'failed';

/**
 * Fires the triggers of one platform. Several schedulers may share a store: each fire is claimed with a
 * compare-and-set on the trigger's record, so it runs at most once whoever sees it first.
 */
export class TriggerScheduler {
  readonly #platform: SchedulerPlatform;
  readonly #records: TriggerRecords;
  readonly #runtime: TriggersRuntime;
  readonly #clock: Clock;
  readonly #policy: FirePolicy;
  readonly #rescanEveryMs: number;
  readonly #restartAfterMs: number;
  readonly #onError: (error: unknown) => void;
  #running = false;
  #cancelTimer: (() => void) | undefined;
  #unsubscribe: (() => void)[] = [];
  #pass: Promise<void> | undefined;
  #passAgain = false;
  #fullScanRequested = true;
  #nextFullScanAt = 0;
  /** When each trigger is next due (or to be looked at again), by record id, as the last passes found. */
  readonly #dueAt = new Map<string, { userId: string; id: string; at: number }>();
  /** Store work in flight: passes, starts, outcomes. */
  readonly #work = new Set<Promise<unknown>>();
  /** Prompts started here that have not stopped (ended or paused) yet. */
  readonly #prompts = new Set<Promise<unknown>>();
  /** Triggers with a fire queued behind a busy conversation, by conversation: started when it frees up. */
  readonly #waiting = new Map<string, Map<string, Trigger>>();
  /** The conversations fires wait for, followed so their prompts' ends reach here from any process. */
  readonly #following = new Map<string, () => void>();

  constructor(platform: SchedulerPlatform, options: SchedulerOptions = {}) {
    this.#platform = platform;
    this.#runtime = runtimeOf(platform.services);
    this.#records = new TriggerRecords(platform.store.records);
    this.#clock = this.#runtime.clock;
    this.#policy = {
      lateGraceMs: options.lateGraceMs ?? 5 * 60_000,
      historyLimit: this.#runtime.historyLimit,
    };
    this.#rescanEveryMs = options.rescanEveryMs ?? 60_000;
    this.#restartAfterMs = options.restartAfterMs ?? 30_000;
    this.#onError = options.onError ?? ((error) => console.error('[triggers]', error));
  }

  get running(): boolean {
    return this.#running;
  }

  /** Starts firing; resolves after the first pass (missed fires handled, next wake planned). */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = [
      this.#platform.events.subscribe({}, (event) => this.#onEvent(event)),
      this.#runtime.changes.listen(() => this.#track(this.#work, this.wake())),
    ];
    await this.wake();
  }

  /** Stops firing and waits for the store work in flight; prompts already started go on. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#cancelTimer?.();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    await Promise.allSettled([this.#pass, ...this.#work]);
    this.#waiting.clear();
    for (const unfollow of this.#following.values()) unfollow();
    this.#following.clear();
  }

  /** Looks at every trigger now: fires what is due, then sleeps until the next due fire. */
  wake(): Promise<void> {
    this.#fullScanRequested = true;
    return this.#passes();
  }

  /** Runs passes until none is asked for; a pass asked for while one runs happens right after it. */
  #passes(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    if (this.#pass) {
      this.#passAgain = true;
      return this.#pass;
    }
    const passes = async () => {
      do {
        this.#passAgain = false;
        await this.#scan();
      } while (this.#passAgain && this.#running);
    };
    this.#pass = passes().finally(() => {
      this.#pass = undefined;
    });
    return this.#pass;
  }

  /** Resolves once nothing started here is in flight: store work, and prompts until they stop. */
  async settled(): Promise<void> {
    for (;;) {
      const pending = [...this.#work, ...this.#prompts, ...(this.#pass ? [this.#pass] : [])];
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  #track(set: Set<Promise<unknown>>, promise: Promise<unknown>): void {
    const tracked = promise.catch(this.#onError).finally(() => set.delete(tracked));
    set.add(tracked);
  }

  /**
   * A full pass reads every trigger (at start, after a change here, and every `rescanEveryMs` to see changes
   * made elsewhere); in between, a timer's pass reads again only the triggers that were due by then, so a
   * fire costs work in proportion to what fires, not to how many triggers there are.
   */
  async #scan(): Promise<void> {
    const now = this.#clock.now();
    const full = this.#fullScanRequested || now >= this.#nextFullScanAt;
    const visit = async (record: TriggerRecord) => {
      try {
        const next = await this.#visit(record, now, 1);
        if (next === undefined) this.#dueAt.delete(record.id);
        else this.#dueAt.set(record.id, { userId: record.value.userId, id: record.value.id, at: next });
      } catch (error) {
        this.#onError(error);
      }
    };
    if (full) {
      this.#fullScanRequested = false;
      this.#nextFullScanAt = now + this.#rescanEveryMs;
      this.#dueAt.clear();
      try {
        for await (const record of this.#records.all()) await visit(record);
      } catch (error) {
        this.#onError(error);
      }
    } else {
      for (const [key, due] of [...this.#dueAt]) {
        if (due.at > now) continue;
        this.#dueAt.delete(key);
        try {
          const record = await this.#records.get(due.userId, due.id);
          if (record) await visit(record);
        } catch (error) {
          this.#onError(error);
        }
      }
    }
    let wakeAt = this.#nextFullScanAt;
    for (const { at } of this.#dueAt.values()) wakeAt = Math.min(wakeAt, at);
    this.#sleepUntil(wakeAt);
  }

  #sleepUntil(at: number): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    if (!this.#running) return;
    // The timer's promise covers the work it caused, so a manual clock can wait for it before moving on.
    this.#cancelTimer = this.#clock.setTimer(at, async () => {
      await this.#passes();
      await this.settled();
    });
  }

  /** Claims the trigger's due fire and starts what is queued; returns when it is next due. */
  async #visit(record: TriggerRecord, now: number, retries: number): Promise<number | undefined> {
    const reconciled = await this.#reconcile(record, now);
    // A run whose prompt has not appeared yet is looked at again once it may be restarted.
    const soonest = (at: number | undefined) =>
      at === undefined ? reconciled.recheckAt : Math.min(at, reconciled.recheckAt ?? at);
    let current = reconciled.record;
    if (current.value.status !== 'active') return soonest(undefined);
    const due = current.value.nextFireAt;
    if (due && Date.parse(due) <= now) {
      const claimed = await this.#records.replace(current, claimDue(current.value, now, this.#policy));
      if (!claimed) {
        // Another scheduler claimed it, or the user changed it: look at what is there now.
        const fresh = await this.#records.get(current.value.userId, current.value.id);
        if (fresh && retries > 0) return this.#visit(fresh, now, retries - 1);
        this.#fullScanRequested = true;
        this.#passAgain = true;
        return undefined;
      }
      current = claimed;
    }
    if (current.value.queued) await this.#startQueued(current);
    const next = current.value.nextFireAt;
    return soonest(next ? Date.parse(next) : undefined);
  }

  /**
   * Catches up on the latest run when its end was not seen here: its prompt ran in another process, or
   * ended while no scheduler listened, or the process stopped between claiming the run and starting it (then
   * the run's prompt is started now, with the id chosen at the claim, so it starts once).
   */
  async #reconcile(
    record: TriggerRecord,
    now: number,
  ): Promise<{ record: TriggerRecord; recheckAt?: number }> {
    const run = record.value.runs.at(-1);
    if (run?.outcome !== 'started') return { record };
    const claimedAt = Date.parse(run.startedAt ?? run.scheduledFor);
    let change: { outcome: RunOutcome; message?: string };
    if (run.promptId) {
      const prompt = await this.#platform.store.prompts.get(run.promptId);
      if (prompt && !isFinalState(prompt.state)) return { record };
      if (!prompt) {
        const restartAt = claimedAt + this.#restartAfterMs;
        if (now < restartAt) return { record, recheckAt: restartAt };
        await this.#startRun(record.value, { id: run.id, promptId: run.promptId }, now);
        return { record: (await this.#records.get(record.value.userId, record.value.id)) ?? record };
      }
      change = {
        outcome: outcomeOf(prompt),
        ...(prompt.stopReason && { message: prompt.stopReason.message }),
      };
    } else {
      // A run from before prompt ids were chosen at the claim: one still without its prompt never started.
      if (now - claimedAt <= this.#policy.lateGraceMs) return { record };
      change = { outcome: 'not_started', message: 'Interrupted before its prompt started.' };
    }
    const updated = updateRun(record.value, run.id, change, now);
    return { record: (updated && (await this.#records.replace(record, updated))) ?? record };
  }

  async #conversationState(conversationId: string): Promise<ConversationState> {
    const { store } = this.#platform;
    const conversation = await store.conversations.get(conversationId);
    if (!conversation) return 'gone';
    // Only the newest prompt of a conversation can still be active.
    const newest = conversation.promptIds.at(-1);
    const prompt = newest ? await store.prompts.get(newest) : undefined;
    return prompt?.state === 'running' || prompt?.state === 'waiting_for_approval' ? 'busy' : 'free';
  }

  /** Starts the queued fire as a prompt with no input, unless the conversation is busy: then it waits. */
  async #startQueued(record: TriggerRecord): Promise<void> {
    const trigger = record.value;
    const now = this.#clock.now();
    const state = await this.#conversationState(trigger.conversationId);
    if (state === 'gone') {
      await this.#records.replace(record, endTrigger(trigger, NO_CONVERSATION, now, this.#policy));
      return;
    }
    if (state === 'busy') return this.#wait(trigger);
    const run = { id: newId('run'), promptId: newId('prm') };
    if (!(await this.#records.replace(record, takeQueued(trigger, now, run, this.#policy)))) return;
    this.#waiting.get(trigger.conversationId)?.delete(trigger.id);
    await this.#startRun(trigger, run, now);
  }

  /** Starts a run's prompt with the id the run holds; a run that cannot start is queued again or ended. */
  async #startRun(trigger: Trigger, run: { id: string; promptId: string }, now: number): Promise<void> {
    const change = (update: (t: Trigger) => Trigger | undefined) =>
      this.#records.change(trigger.userId, trigger.id, update);
    try {
      const started = await this.#platform.start({
        promptId: run.promptId,
        conversationId: trigger.conversationId,
        userId: trigger.userId,
        // The name too: an app can label the prompt after the trigger is deleted.
        metadata: { trigger: trigger.id, triggerRun: run.id, triggerName: trigger.name },
      });
      this.#track(this.#prompts, started.done);
    } catch (error) {
      // Another scheduler started this very prompt meanwhile: the run is under way.
      if (ConflictError.is(error) || (await this.#platform.store.prompts.get(run.promptId))) return;
      if (ConversationBusyError.is(error)) {
        // Someone started a prompt since we looked: back in the queue, merged with any newer fire.
        this.#wait(trigger);
        await change((t) => requeue(t, run.id, now));
      } else if (NotFoundError.is(error)) {
        await change((t) => endTrigger(t, NO_CONVERSATION, now, this.#policy));
      } else {
        const message = `Not started: ${errorMessage(error)}`;
        await change((t) => updateRun(t, run.id, { outcome: 'not_started', message }, now));
        this.#onError(error);
      }
    }
  }

  #wait(trigger: Trigger): void {
    let waiting = this.#waiting.get(trigger.conversationId);
    if (!waiting) {
      waiting = new Map();
      this.#waiting.set(trigger.conversationId, waiting);
      // With a routed relay, the end of the prompt it waits for comes here only if this process follows it.
      const topic = `conversation:${trigger.conversationId}` as const;
      this.#following.set(trigger.conversationId, this.#platform.events.follow(topic));
    }
    waiting.set(trigger.id, trigger);
  }

  #onEvent(event: TesseraEvent): void {
    if (!this.#running) return;
    if (
      event.type === 'prompt.completed' ||
      event.type === 'prompt.failed' ||
      event.type === 'prompt.cancelled'
    ) {
      this.#track(this.#work, this.#afterPrompt(event.prompt));
    }
  }

  /** Records how a trigger's prompt ended, then starts the fires that waited for the conversation. */
  async #afterPrompt(prompt: Prompt): Promise<void> {
    const triggerId = triggerIdOf(prompt.metadata);
    const runId = prompt.metadata?.triggerRun;
    if (triggerId && typeof runId === 'string') {
      const outcome = outcomeOf(prompt);
      const message = prompt.stopReason?.message;
      await this.#records.change(prompt.userId, triggerId, (t) =>
        updateRun(t, runId, { promptId: prompt.id, outcome, ...(message && { message }) }, this.#clock.now()),
      );
    }
    const waiting = this.#waiting.get(prompt.conversationId);
    if (!waiting) return;
    this.#waiting.delete(prompt.conversationId);
    this.#following.get(prompt.conversationId)?.();
    this.#following.delete(prompt.conversationId);
    for (const trigger of waiting.values()) {
      const record = await this.#records.get(trigger.userId, trigger.id);
      if (record?.value.status === 'active' && record.value.queued) await this.#startQueued(record);
    }
  }
}

/**
 * A scheduler of a platform that has `triggersPlugin()`, started and stopped by hand: for tests and for
 * apps that fire triggers their own way. `platform.open()` already runs one (unless the plugin was given
 * `scheduler: false`), and `platform.close()` stops it.
 */
export const createTriggerScheduler = (platform: SchedulerPlatform, options?: SchedulerOptions) =>
  new TriggerScheduler(platform, options);
