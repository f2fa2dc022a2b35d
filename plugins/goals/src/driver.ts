import {
  ConflictError,
  ConversationBusyError,
  NotFoundError,
  type Platform,
  type Prompt,
  type TesseraEvent,
} from '@tessera/core';
import {
  accounted,
  allMet,
  asText,
  budgetReached,
  checkTools,
  saysFailed,
  withAccounted,
  withProgress,
} from './goal-logic.ts';
import { type GoalRecord, GoalRecords, isLiveState } from './records.ts';
import type { GoalsRuntime } from './runtime.ts';
import type { GoalPause, ProgressEntry, StoredGoal } from './types.ts';

/** The id of the prompt of a goal's turn: the same in every process, so a turn is started at most once. */
export const continuationId = (goalId: string, turn: number): string => `${goalId}_t${turn}`;

/** What a continuation prompt carries in its metadata: `{ goal: { id, turn } }`. */
export type GoalMeta = { id: string; turn: number };

export function goalMetaOf(metadata: Record<string, unknown> | undefined): GoalMeta | undefined {
  const goal = metadata?.goal as { id?: unknown; turn?: unknown } | undefined;
  if (typeof goal?.id !== 'string' || typeof goal.turn !== 'number') return undefined;
  return { id: goal.id, turn: goal.turn };
}

export const GOAL_TOOL_PREFIX = 'goal.';

/** The answer recorded for a continuation that was fenced off (its goal paused, ended or moved on). */
export const FENCED_PREFIX = 'Goal continuation not run: ';

/** The answer recorded for a continuation stopped before a later model call (its goal paused meanwhile). */
export const STOPPED_PREFIX = 'Goal continuation stopped: ';

/** Whether the prompt is a continuation fenced off before its first model call (no call was made). */
const fenced = (prompt: Prompt): boolean =>
  prompt.output.every((o) => o.type !== 'tool') &&
  prompt.output.some((o) => o.type === 'text' && o.text.startsWith(FENCED_PREFIX));
const isGoalTool = (toolId: string) => toolId.startsWith(GOAL_TOOL_PREFIX);

export const continuationInput = (turn: number): string =>
  `Continue working on the goal (turn ${turn}): take the next step of the plan, verify with the check tools, and update the plan and progress.`;

/** Checked calls remembered per goal, so a check's result is counted once (hook or prompt end). */
const CHECKED_KEPT = 64;

type CheckCall = { toolCallId: string; toolId: string; ok: boolean; summary: string };

/** The finished calls of checks (`toolIds`) in a prompt's record. */
function checkCalls(prompt: Prompt, toolIds: Set<string>): CheckCall[] {
  const calls: CheckCall[] = [];
  for (const output of prompt.output) {
    if (output.type !== 'tool' || !toolIds.has(output.toolId) || !output.result) continue;
    const result = output.result;
    if (result.type === 'success') {
      calls.push({
        toolCallId: output.id,
        toolId: output.toolId,
        ok: !saysFailed(result.output),
        summary: asText(result.output),
      });
    } else if (result.type === 'error') {
      calls.push({ toolCallId: output.id, toolId: output.toolId, ok: false, summary: asText(result.error) });
    }
  }
  return calls;
}

/** Whether a prompt did work: a successful call of a tool that is neither a goal tool nor a check. */
function didWork(prompt: Prompt, checks: Set<string>): boolean {
  return prompt.output.some(
    (output) =>
      output.type === 'tool' &&
      output.result?.type === 'success' &&
      !isGoalTool(output.toolId) &&
      !checks.has(output.toolId),
  );
}

/** `goal` with a check's result applied: evidence when it passed (once), `check_failed` when not. */
export function applyCheck(goal: StoredGoal, call: CheckCall, promptId: string, at: string): StoredGoal {
  if (goal.internal.checked?.includes(call.toolCallId)) return goal;
  const entries: ProgressEntry[] = [];
  const criteria = goal.criteria.map((criterion) => {
    if (criterion.verify.kind !== 'check' || criterion.verify.toolId !== call.toolId) return criterion;
    const lastCheck = { at, passed: call.ok, summary: call.summary };
    if (!call.ok) {
      entries.push({
        at,
        promptId,
        kind: 'check_failed',
        text: `${criterion.id} (${call.toolId}): ${call.summary}`,
      });
      return { ...criterion, lastCheck };
    }
    if (criterion.evidence) return { ...criterion, lastCheck };
    entries.push({
      at,
      promptId,
      kind: 'evidence',
      text: `${criterion.id} (${call.toolId}): ${call.summary}`,
    });
    return {
      ...criterion,
      lastCheck,
      evidence: { at, by: 'check' as const, summary: call.summary, promptId, toolCallId: call.toolCallId },
    };
  });
  const checked = [...(goal.internal.checked ?? []), call.toolCallId].slice(-CHECKED_KEPT);
  return withProgress({ ...goal, criteria, internal: { ...goal.internal, checked } }, ...entries);
}

const pauseGoal = (goal: StoredGoal, pause: GoalPause, at: string): StoredGoal =>
  withProgress(
    { ...goal, state: 'paused', pause },
    { at, ...(pause.promptId && { promptId: pause.promptId }), kind: 'paused', text: pause.reason },
  );

/** The goal ended (completed, stopped or out of budget) with `reason`. */
export const endGoal = (
  goal: StoredGoal,
  state: 'completed' | 'stopped' | 'budget_exhausted',
  reason: string,
  at: string,
  promptId?: string,
): StoredGoal => {
  const { pause: _pause, ...rest } = goal;
  const kind = state === 'budget_exhausted' ? 'budget' : state;
  return withProgress(
    { ...rest, state, endReason: reason },
    { at, ...(promptId && { promptId }), kind, text: reason },
  );
};

type Settlement = { next: StoredGoal; advance: boolean } | undefined;

/**
 * The goals' driver in one platform (process): after each prompt of a conversation with a live goal, counts
 * what it used and proved, then completes, pauses, ends or continues the goal; and sweeps for active goals
 * nothing drives (after a restart). Every change is a compare-and-set on the goal's record; a turn's prompt
 * has an id derived from the goal and the turn, so no turn ever starts twice, in any process.
 */
export class GoalDriver {
  readonly records: GoalRecords;
  readonly #platform: Platform;
  readonly #runtime: GoalsRuntime;
  /** One settlement at a time per conversation in this process. */
  readonly #queues = new Map<string, Promise<void>>();

  constructor(platform: Platform, runtime: GoalsRuntime) {
    this.#platform = platform;
    this.#runtime = runtime;
    this.records = new GoalRecords(platform.store.records);
  }

  /** Runs `work` after the conversation's earlier settlements in this process. */
  serial(conversationId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.#queues.get(conversationId) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.#queues.set(conversationId, next);
    const forget = () => {
      if (this.#queues.get(conversationId) === next) this.#queues.delete(conversationId);
    };
    next.then(forget, forget);
    return next;
  }

  /** Reacts to a local event: a prompt's end, an approval asked or a pause asked. */
  onEvent(event: TesseraEvent): Promise<void> | undefined {
    switch (event.type) {
      case 'prompt.completed':
      case 'prompt.failed':
      case 'prompt.cancelled': {
        const prompt = event.prompt;
        return this.serial(event.conversationId, () => this.settle(prompt));
      }
      case 'prompt.approval-requested': {
        const reason = `Waiting for approval of ${event.toolId} (call ${event.toolCallId}): ${event.reason}`;
        return this.serial(event.conversationId, () =>
          this.pauseFor(event.conversationId, event.promptId, { kind: 'approval', reason }),
        );
      }
      case 'prompt.pause-requested': {
        const doomLoop = event.source === 'doom_loop' || event.plugin === 'doom-loop';
        const reason = `${doomLoop ? 'The doom-loop check paused the prompt' : 'The prompt paused'} (pause ${event.outputId}): ${event.reason}`;
        return this.serial(event.conversationId, () =>
          this.pauseFor(event.conversationId, event.promptId, {
            kind: doomLoop ? 'doom_loop' : 'approval',
            reason,
          }),
        );
      }
      default:
        return undefined;
    }
  }

  /** Pauses the conversation's active goal for a prompt of it that waits for a person's decision. */
  async pauseFor(
    conversationId: string,
    promptId: string,
    pause: Omit<GoalPause, 'promptId'>,
  ): Promise<void> {
    const prompt = await this.#platform.store.prompts.get(promptId);
    const meta = goalMetaOf(prompt?.metadata);
    await this.change(conversationId, (goal) => {
      if (goal.state !== 'active') return undefined;
      if (meta && (meta.id !== goal.id || meta.turn !== goal.turn)) return undefined;
      return pauseGoal(goal, { ...pause, promptId }, this.#runtime.iso());
    });
  }

  /**
   * Read, change, compare-and-set the conversation's goal, retried on conflict; `change` returns undefined to
   * leave it. Resolves with the record as written (or as read, when left), undefined when there is no goal.
   */
  async change(
    conversationId: string,
    change: (goal: StoredGoal, record: GoalRecord) => StoredGoal | undefined,
  ): Promise<{ record: GoalRecord; written: boolean } | undefined> {
    for (;;) {
      const current = await this.records.ofConversation(conversationId);
      if (!current) return undefined;
      const next = change(current.value, current);
      if (!next) return { record: current, written: false };
      const written = await this.records.replace(current, { ...next, updatedAt: this.#runtime.iso() });
      if (written) {
        if (!isLiveState(written.value.state) && isLiveState(current.value.state)) {
          await this.records.unmarkLive(written.id);
        }
        return { record: written, written: true };
      }
    }
  }

  /** After a prompt of the conversation ended: count it, then complete, pause, end or continue the goal. */
  async settle(prompt: Prompt): Promise<void> {
    const meta = goalMetaOf(prompt.metadata);
    let advance = false;
    const result = await this.change(prompt.conversationId, (goal) => {
      const settled = this.#settlement(goal, prompt, meta);
      advance = settled?.advance ?? false;
      return settled?.next;
    });
    if (!result) return;
    const { record } = result;
    if (advance || (record.value.state === 'active' && (!meta || meta.turn !== record.value.turn))) {
      // A continuation was decided (its turn is written), or the prompt was not the current turn's: the
      // current turn's prompt starts now unless it exists (an older continuation fenced, or a busy start).
      await this.startTurn(record);
    }
  }

  #settlement(goal: StoredGoal, prompt: Prompt, meta: GoalMeta | undefined): Settlement {
    if (meta && meta.id !== goal.id) return undefined; // an older goal's prompt
    if (accounted(goal, prompt.id)) return undefined;
    if (meta && fenced(prompt)) return undefined; // it never called the model: nothing to count or decide
    const live = isLiveState(goal.state);
    // An ended goal still counts what the prompt that ended it used (its continuation, or a prompt whose
    // tool completed it); nothing else.
    if (!live && !meta && !goal.progress.some((e) => e.promptId === prompt.id)) return undefined;
    const at = this.#runtime.iso();
    let next = withAccounted(goal, prompt.id);
    const madeCalls = prompt.usage.modelCalls > 0;
    const wallMs = Math.max(0, Date.parse(prompt.updatedAt) - Date.parse(prompt.createdAt)) || 0;
    next = {
      ...next,
      used: {
        modelCalls: next.used.modelCalls + prompt.usage.modelCalls,
        totalTokens: next.used.totalTokens + prompt.usage.totalTokens,
        cost: next.used.cost + (prompt.usage.cost ?? 0),
        prompts: next.used.prompts + (madeCalls ? 1 : 0),
        wallMs: next.used.wallMs + (madeCalls ? wallMs : 0),
      },
    };
    if (!live) return { next, advance: false };
    const checks = checkTools(goal);
    for (const call of checkCalls(prompt, checks)) next = applyCheck(next, call, prompt.id, at);
    const current = !meta || meta.turn === goal.turn;
    if (!current) return { next, advance: false }; // a stale continuation: counted, nothing decided

    if (next.state === 'paused') {
      const pause = next.pause;
      const waitedHere =
        (pause?.kind === 'approval' || pause?.kind === 'doom_loop') && pause.promptId === prompt.id;
      if (!waitedHere) return { next, advance: false };
      if (prompt.state === 'cancelled') {
        // Cancelled instead of decided: the goal stays paused, now for that reason.
        const reason = `Prompt ${prompt.id} was cancelled while it waited.`;
        return { next: pauseGoal(next, { kind: 'user', reason, promptId: prompt.id }, at), advance: false };
      }
      // The decision was made and the prompt went on to its end: the goal goes on.
      const { pause: _pause, ...rest } = next;
      next = withProgress(
        { ...rest, state: 'active' },
        { at, promptId: prompt.id, kind: 'resumed', text: 'The decision was made; the goal goes on.' },
      );
    }
    if (allMet(next)) {
      return {
        next: endGoal(next, 'completed', 'Every criterion has evidence.', at, prompt.id),
        advance: false,
      };
    }
    const overBudget = budgetReached(next.budgets, next.used);
    if (overBudget)
      return { next: endGoal(next, 'budget_exhausted', overBudget, at, prompt.id), advance: false };
    if (prompt.state === 'cancelled') {
      return {
        next: pauseGoal(
          next,
          { kind: 'user', reason: `Prompt ${prompt.id} was cancelled.`, promptId: prompt.id },
          at,
        ),
        advance: false,
      };
    }
    if (prompt.state === 'failed') {
      const why = prompt.stopReason ? `${prompt.stopReason.code}: ${prompt.stopReason.message}` : 'failed';
      return {
        next: pauseGoal(
          next,
          { kind: 'blocker', reason: `Prompt ${prompt.id} failed (${why}).`, promptId: prompt.id },
          at,
        ),
        advance: false,
      };
    }
    const newEvidence = next.criteria.some((c) => c.evidence?.promptId === prompt.id);
    const progressed = newEvidence || didWork(prompt, checks);
    if (progressed) next = { ...next, stalls: 0 };
    else if (meta) {
      const stalls = next.stalls + 1;
      next = withProgress(
        { ...next, stalls },
        {
          at,
          promptId: prompt.id,
          kind: 'stall',
          text: `No progress in this prompt (${stalls} of ${next.stallLimit}).`,
        },
      );
      if (stalls >= next.stallLimit) {
        const reason = `No progress in ${stalls} prompts in a row: no work tool succeeded and no criterion got new evidence.`;
        return { next: pauseGoal(next, { kind: 'stall', reason, promptId: prompt.id }, at), advance: false };
      }
    }
    // Goes on: the next turn, unless a user's message waits (it runs first; its end drives the goal).
    return { next: { ...next, turn: next.turn + 1 }, advance: true };
  }

  /** Starts the active goal's current turn, unless it exists, a message waits, or the conversation is busy. */
  async startTurn(record: GoalRecord): Promise<void> {
    const goal = record.value;
    if (goal.state !== 'active' || goal.turn < 1) return;
    if (await this.#messagesWait(goal.conversationId)) return;
    try {
      const run = await this.#platform.start({
        conversationId: goal.conversationId,
        userId: goal.userId,
        promptId: continuationId(goal.id, goal.turn),
        input: continuationInput(goal.turn),
        metadata: { goal: { id: goal.id, turn: goal.turn } },
      });
      // Its end drives the goal (the event); a run that could not store its end (the store failing, the
      // process stopping) is left to recovery, never an unhandled rejection.
      run.done.catch(() => undefined);
    } catch (error) {
      // Started already (here or elsewhere), or another prompt runs: its end drives the goal.
      if (ConflictError.is(error) || ConversationBusyError.is(error)) return;
      if (NotFoundError.is(error)) return; // the conversation is gone
      throw error;
    }
  }

  /** Moves an active goal to its next turn (compare-and-set) and starts it. */
  async advance(conversationId: string, goalId: string): Promise<void> {
    if (await this.#messagesWait(conversationId)) return;
    const result = await this.change(conversationId, (goal) =>
      goal.id === goalId && goal.state === 'active' ? { ...goal, turn: goal.turn + 1 } : undefined,
    );
    if (result?.written) await this.startTurn(result.record);
  }

  async #messagesWait(conversationId: string): Promise<boolean> {
    const messages = this.#platform.store.messages;
    if (!messages) return false;
    return (await messages.list(conversationId)).length > 0;
  }

  /**
   * Drives every active goal nothing drives: a turn whose prompt was never started (a process died after
   * writing the turn), a prompt that ended uncounted (a process died before counting it), a goal left
   * waiting for a conversation that is idle now. Derived prompt ids make it safe beside other processes.
   */
  async sweep(signal?: AbortSignal): Promise<void> {
    for await (const entry of this.records.live()) {
      if (signal?.aborted) return;
      const record = await this.records.get(entry.key);
      if (!record) {
        // A create stopped before the goal was written; old enough not to be one in progress.
        if (Date.parse(entry.at) < this.#runtime.now().getTime() - 60_000)
          await this.records.unmarkLive(entry.key);
        continue;
      }
      const goal = record.value;
      if (!isLiveState(goal.state)) {
        await this.records.unmarkLive(entry.key);
        continue;
      }
      const pointer = await this.records.pointer(goal.conversationId);
      if (pointer?.value.key !== record.id) continue; // not (yet) the conversation's goal
      if (goal.state !== 'active' || goal.turn < 1) continue;
      await this.serial(goal.conversationId, () => this.#sweepOne(record));
    }
  }

  async #sweepOne(record: GoalRecord): Promise<void> {
    const goal = record.value;
    const stored = await this.#platform.store.prompts.get(continuationId(goal.id, goal.turn));
    if (!stored) return this.startTurn(record);
    if (stored.state === 'running' || stored.state === 'waiting_for_approval') return;
    if (!accounted(goal, stored.id)) return this.settle(stored as Prompt);
    return this.advance(goal.conversationId, goal.id);
  }
}
