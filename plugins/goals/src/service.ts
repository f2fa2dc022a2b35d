import {
  ConflictError,
  NotFoundError,
  newId,
  type Platform,
  PlatformToken,
  TesseraError,
} from '@tessera/core';
import { continuationId, endGoal, GoalDriver } from './driver.ts';
import { allMet, budgetReached, criteriaFrom, emptyUsage, publicGoal, withProgress } from './goal-logic.ts';
import {
  MAX_NOTE,
  MAX_REASON,
  optionalText,
  parseBudgets,
  parseChanges,
  parseCreate,
  parseList,
} from './inputs.ts';
import { type GoalRecord, goalKey, isLiveState } from './records.ts';
import { type GoalsRuntime, runtimeOf } from './runtime.ts';
import type {
  Goal,
  GoalBudgets,
  GoalChanges,
  GoalListOptions,
  GoalPage,
  GoalService,
  PlatformServices,
  StoredGoal,
} from './types.ts';

const drivers = new WeakMap<Platform, GoalDriver>();

/** The driver of a platform (one per platform: the service and the plugin's hooks share it). */
export function driverOf(platform: Platform, runtime: GoalsRuntime): GoalDriver {
  let driver = drivers.get(platform);
  if (!driver) {
    driver = new GoalDriver(platform, runtime);
    drivers.set(platform, driver);
  }
  return driver;
}

/** The goals one conversation may have had (its pointer lists them, for their deletion with it). */
const MAX_GOALS_PER_CONVERSATION = 100;

const notFound = (conversationId: string) =>
  new NotFoundError(`Conversation ${conversationId} has no goal (or is not yours).`);

class Goals implements GoalService {
  readonly #platform: Platform;
  readonly #runtime: GoalsRuntime;
  readonly #driver: GoalDriver;

  constructor(platform: Platform, runtime: GoalsRuntime) {
    this.#platform = platform;
    this.#runtime = runtime;
    this.#driver = driverOf(platform, runtime);
  }

  get #records() {
    return this.#driver.records;
  }
  /**
   * Marks the conversation as one that has had a goal, before anything of the goal is written: its prompts
   * read the goal from then on (a conversation never marked reads none). Never taken back.
   */
  async #markConversation(conversationId: string): Promise<void> {
    const plugin = this.#runtime.plugin;
    if (!plugin) throw new Error('The goals runtime has no plugin: create it with goalsPlugin().');
    const state = await this.#platform.pluginState(conversationId, plugin);
    if (state.get().goal !== true) await state.set({ goal: true });
  }

  async create(conversationId: string, userId: string, input: unknown): Promise<Goal> {
    const valid = parseCreate(input);
    await this.#platform.conversations.get(conversationId, userId); // NotFoundError unless the user's
    await this.#checkTools(conversationId, userId, valid.criteria);
    const pointer = await this.#records.pointer(conversationId);
    if (pointer) {
      const current = await this.#records.get(pointer.value.key);
      if (current && isLiveState(current.value.state)) {
        throw new ConflictError(
          `Conversation ${conversationId} already has a live goal (${current.value.id}, ${current.value.state}): stop it first.`,
        );
      }
    }
    const now = this.#runtime.now();
    const at = now.toISOString();
    const id = newId('gol');
    const key = goalKey(userId, id, now.getTime());
    const goal: StoredGoal = {
      id,
      conversationId,
      userId,
      objective: valid.objective,
      criteria: criteriaFrom(valid.criteria),
      budgets: { ...this.#runtime.defaultBudgets, ...valid.budgets },
      used: emptyUsage(),
      stallLimit: valid.stallLimit ?? this.#runtime.defaultStallLimit,
      stalls: 0,
      state: 'active',
      progress: [],
      turn: valid.start === false ? 0 : 1,
      createdAt: at,
      updatedAt: at,
      internal: { accounted: [], entries: 0, checkpointed: 0 },
    };
    const older = pointer ? [...(pointer.value.older ?? []), pointer.value.key] : [];
    if (older.length >= MAX_GOALS_PER_CONVERSATION) {
      throw new ConflictError(
        `Conversation ${conversationId} has had ${MAX_GOALS_PER_CONVERSATION} goals, the most it may: start a new conversation.`,
      );
    }
    // The live mark first, counted (again once written: creates at the same moment all passed the first
    // count, and one that finds too many takes itself back); then the conversation's pointer (a
    // compare-and-set: of two creates at once one wins); then the goal. A process stopped in between leaves
    // a live mark of no goal (the sweep removes it) or a pointer to no goal (get: none; create replaces it).
    await this.#markConversation(conversationId);
    await this.#checkLiveCount(userId);
    await this.#records.markLive(key, at);
    const max = this.#runtime.maxLiveGoalsPerUser;
    if ((await this.#records.liveCount(userId, max + 1)) > max) {
      await this.#records.unmarkLive(key);
      throw this.#tooMany();
    }
    const next = { key, userId, ...(older.length > 0 && { older }) };
    if (!(await this.#records.setPointer(conversationId, next, pointer?.version ?? 0))) {
      await this.#records.unmarkLive(key);
      throw new ConflictError(`Conversation ${conversationId} got another goal meanwhile.`);
    }
    const record = await this.#records.insert(key, goal);
    await this.#driver.startTurn(record);
    return publicGoal(record.value, record.version);
  }

  async #checkLiveCount(userId: string): Promise<void> {
    const max = this.#runtime.maxLiveGoalsPerUser;
    if ((await this.#records.liveCount(userId, max)) >= max) throw this.#tooMany();
  }

  #tooMany(): ConflictError {
    const max = this.#runtime.maxLiveGoalsPerUser;
    return new ConflictError(
      `A user may have at most ${max} live (active or paused) goals, and you have as many: stop one first.`,
    );
  }

  async #checkTools(
    conversationId: string,
    userId: string,
    criteria: { verify?: { kind: string; toolId?: string } }[],
  ) {
    const wanted = criteria.flatMap((c) => (c.verify?.kind === 'check' ? [c.verify.toolId as string] : []));
    if (wanted.length === 0) return;
    const offered = await this.#platform.offeredTools(conversationId, userId);
    for (const toolId of wanted) {
      if (toolId.startsWith('goal.')) {
        throw new TesseraError(
          'invalid_input',
          `Invalid goal: a goal tool (${toolId}) cannot be a criterion's check.`,
        );
      }
      if (!offered.has(toolId)) {
        throw new TesseraError(
          'invalid_input',
          `Invalid goal: the check tool ${toolId} is not offered in conversation ${conversationId}.`,
        );
      }
    }
  }

  async #read(conversationId: string, userId: string): Promise<GoalRecord> {
    const pointer = await this.#records.pointer(conversationId);
    if (!pointer || pointer.value.userId !== userId) throw notFound(conversationId);
    const record = await this.#records.get(pointer.value.key);
    if (!record || record.value.userId !== userId) throw notFound(conversationId);
    return record;
  }

  async get(conversationId: string, userId: string): Promise<Goal> {
    const record = await this.#read(conversationId, userId);
    return publicGoal(record.value, record.version);
  }

  async list(userId: string, page?: GoalListOptions): Promise<GoalPage> {
    const { limit = 50, cursor, state } = parseList(page);
    const found = await this.#records.page(userId, limit, cursor);
    const items = found.items
      .filter((record) => state === undefined || record.value.state === state)
      .map((record) => publicGoal(record.value, record.version));
    return { items, ...(found.nextCursor && { nextCursor: found.nextCursor }) };
  }

  /**
   * Changes the user's conversation's goal with `change` (compare-and-set, retried on conflict), which throws
   * to refuse; the goal as written.
   */
  async #change(
    conversationId: string,
    userId: string,
    change: (goal: StoredGoal) => StoredGoal,
  ): Promise<GoalRecord> {
    await this.#read(conversationId, userId);
    const result = await this.#driver.change(conversationId, (goal) => {
      if (goal.userId !== userId) throw notFound(conversationId);
      return change(goal);
    });
    if (!result) throw notFound(conversationId);
    return result.record;
  }

  async revise(conversationId: string, userId: string, changes: GoalChanges): Promise<Goal> {
    const valid = parseChanges(changes);
    if (valid.criteria) await this.#checkTools(conversationId, userId, valid.criteria);
    const record = await this.#change(conversationId, userId, (goal) => {
      liveOnly(goal, 'revise');
      const what = Object.keys(valid).join(', ') || 'nothing';
      return withProgress(
        {
          ...goal,
          ...(valid.objective !== undefined && { objective: valid.objective }),
          ...(valid.criteria && { criteria: criteriaFrom(valid.criteria, goal.criteria) }),
          ...(valid.budgets && { budgets: valid.budgets }),
          ...(valid.stallLimit !== undefined && { stallLimit: valid.stallLimit }),
          stalls: 0,
        },
        { at: this.#runtime.iso(), kind: 'revised', text: `Revised by the user: ${what}.` },
      );
    });
    return publicGoal(record.value, record.version);
  }

  async pause(conversationId: string, userId: string, reason?: string): Promise<Goal> {
    const why = optionalText(reason, MAX_REASON, 'reason') ?? 'Paused by the user.';
    const record = await this.#change(conversationId, userId, (goal) => {
      if (goal.state !== 'active') throw conflict(goal, 'pause');
      return withProgress(
        { ...goal, state: 'paused', pause: { kind: 'user', reason: why } },
        { at: this.#runtime.iso(), kind: 'paused', text: why },
      );
    });
    return publicGoal(record.value, record.version);
  }

  async resume(conversationId: string, userId: string, options?: { budgets?: GoalBudgets }): Promise<Goal> {
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw new TesseraError('invalid_input', 'Invalid resume options.');
    }
    const extra = Object.keys(options ?? {}).filter((k) => k !== 'budgets');
    if (extra.length > 0)
      throw new TesseraError('invalid_input', `Invalid resume options: unknown ${extra.join(', ')}.`);
    const raised = options?.budgets === undefined ? undefined : parseBudgets(options.budgets);
    const current = await this.#read(conversationId, userId);
    let wake: string | undefined;
    if (current.value.state === 'budget_exhausted') {
      await this.#checkLiveCount(userId);
      await this.#records.markLive(current.id, this.#runtime.iso());
    }
    const record = await this.#change(conversationId, userId, (goal) => {
      if (goal.state !== 'paused' && goal.state !== 'budget_exhausted') throw conflict(goal, 'resume');
      const budgets = { ...goal.budgets, ...raised };
      const still = budgetReached(budgets, goal.used);
      if (still) {
        throw new TesseraError(
          'invalid_input',
          `${still} Resume with a larger budget (budgets above what the goal has used).`,
        );
      }
      const { pause: _pause, endReason: _endReason, ...rest } = goal;
      wake = goal.internal.wakeTriggerId;
      const { wakeTriggerId: _wake, ...internal } = goal.internal;
      return withProgress(
        { ...rest, internal, budgets, state: 'active', stalls: 0, turn: goal.turn + 1 },
        {
          at: this.#runtime.iso(),
          kind: 'resumed',
          text: raised
            ? `Resumed by the user with budgets ${JSON.stringify(raised)}.`
            : 'Resumed by the user.',
        },
      );
    });
    await this.#dropWake(userId, wake);
    await this.#driver.startTurn(record);
    return publicGoal(record.value, record.version);
  }

  /** Deletes the trigger that would have woken a waiting goal, now resumed or stopped (best effort). */
  async #dropWake(userId: string, triggerId: string | undefined): Promise<void> {
    if (!triggerId || !this.#platform.plugins.some((plugin) => plugin.id === 'triggers')) return;
    try {
      const { triggerService } = await import('@tessera/plugin-triggers');
      await triggerService(this.#platform.services).delete(userId, triggerId);
    } catch {
      // A trigger left behind only starts a prompt in the conversation; the goal is not waiting for it.
    }
  }

  async stop(conversationId: string, userId: string, reason?: string): Promise<Goal> {
    const why = optionalText(reason, MAX_REASON, 'reason') ?? 'Stopped by the user.';
    let wake: string | undefined;
    const record = await this.#change(conversationId, userId, (goal) => {
      liveOnly(goal, 'stop');
      wake = goal.internal.wakeTriggerId;
      return endGoal(goal, 'stopped', why, this.#runtime.iso());
    });
    await this.#dropWake(userId, wake);
    return publicGoal(record.value, record.version);
  }

  async confirm(conversationId: string, userId: string, criterionId: string, note?: string): Promise<Goal> {
    const text = optionalText(note, MAX_NOTE, 'note') ?? 'Confirmed by the user.';
    const current = await this.#read(conversationId, userId);
    if (!current.value.criteria.some((c) => c.id === criterionId)) {
      throw new NotFoundError(`Goal ${current.value.id} has no criterion ${String(criterionId)}.`);
    }
    const record = await this.#change(conversationId, userId, (goal) => {
      liveOnly(goal, 'confirm');
      const at = this.#runtime.iso();
      const criteria = goal.criteria.map((c) =>
        c.id === criterionId
          ? { ...c, evidence: { at, by: 'human' as const, summary: text, decidedBy: userId } }
          : c,
      );
      if (!criteria.some((c) => c.id === criterionId)) {
        throw new NotFoundError(`Goal ${goal.id} has no criterion ${String(criterionId)}.`);
      }
      const confirmed = withProgress(
        { ...goal, criteria },
        { at, kind: 'evidence', text: `${criterionId} confirmed by ${userId}: ${text}` },
      );
      return allMet(confirmed)
        ? endGoal(confirmed, 'completed', 'Every criterion has evidence.', at)
        : confirmed;
    });
    return publicGoal(record.value, record.version);
  }
}

function liveOnly(goal: StoredGoal, action: string): void {
  if (!isLiveState(goal.state)) throw conflict(goal, action);
}

const conflict = (goal: StoredGoal, action: string) =>
  new ConflictError(
    `Cannot ${action} goal ${goal.id}: it is ${goal.state}${goal.endReason ? ` (${goal.endReason})` : ''}.`,
  );

/** The goal service of a platform, from its service container (`platform.services`). */
export function goalService(services: PlatformServices): GoalService {
  const runtime = runtimeOf(services);
  return new Goals(services.resolve(PlatformToken), runtime);
}

export { continuationId };
