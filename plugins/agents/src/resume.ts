import {
  ConflictError,
  isFinalState,
  NotFoundError,
  type Platform,
  type Prompt,
  type TesseraEvent,
} from '@tessera/core';
import type { AgentRegistry } from './registry.ts';
import { childPromptId } from './run.ts';

/**
 * Resumes, in one platform, the parents whose agent call was suspended while its child waited (see
 * `suspendCall`): the process that ran a child to its end decides the parent's call (approve: the tool runs
 * again, finds the child ended and returns its run). Three ways, each safe to race with the others and with
 * other processes (a decision is claimed with one compare-and-set write; the losers get a `ConflictError`):
 *
 * - a child ended here (`prompt.completed`, `failed`, `cancelled`, this process's events only): decide its
 *   parent's call, if that call is suspended;
 * - a parent here was just stored waiting on an agent call (`prompt.approval-requested`) whose child ended
 *   already (it ended while the parent was still running, so the first way found nothing to decide);
 * - once when the platform opens (and every `sweepEveryMs` if given): every waiting prompt whose pending agent
 *   call's child ended while no process ran the plugin, or in one that stopped before deciding.
 *
 * And a parent cancelled (`prompt.cancelled`) cancels the children of its `agent-run` outputs that have not
 * ended (a waiting parent's call no longer runs, so nothing else would); so does a suspended agent call the
 * user rejected, answered or skipped, for its child.
 */
export class ParentResumer {
  #unsubscribe: (() => void) | undefined;
  #sweep: Promise<void> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #sweeping = false;
  readonly #pending = new Set<Promise<void>>();

  readonly platform: Platform;
  readonly registry: AgentRegistry;
  readonly signal: AbortSignal;
  readonly reportError: (error: unknown) => void;

  constructor(
    platform: Platform,
    registry: AgentRegistry,
    signal: AbortSignal,
    reportError: (error: unknown) => void,
  ) {
    this.platform = platform;
    this.registry = registry;
    this.signal = signal;
    this.reportError = reportError;
  }

  /** Starts listening, sweeps once, and then every `sweepEveryMs` (0: only once). */
  start(sweepEveryMs = 0): void {
    // Only this process's events: the process that ran the child (or stored the parent waiting, or cancelled
    // it) acts, once, whatever other processes share the store.
    this.#unsubscribe = this.platform.events.subscribe({ local: true }, (event) => this.#onEvent(event));
    this.#sweep = this.#track(this.sweep());
    if (sweepEveryMs > 0) {
      this.#timer = setInterval(() => {
        // One sweep at a time: a slow store skips a turn rather than piling sweeps up.
        if (this.#sweeping || this.signal.aborted) return;
        this.#sweeping = true;
        this.#sweep = this.#track(this.sweep()).finally(() => {
          this.#sweeping = false;
        });
      }, sweepEveryMs);
      this.#timer.unref?.();
    }
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearInterval(this.#timer);
    await this.#sweep;
    await Promise.all([...this.#pending]);
  }

  /** Runs `work` in the background: a failure goes to `reportError`, never to the loop or the publisher. */
  #track(work: Promise<void>): Promise<void> {
    const tracked = work.catch((error: unknown) => this.reportError(error));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
    return tracked;
  }

  #onEvent(event: TesseraEvent): void {
    if (this.signal.aborted) return;
    switch (event.type) {
      case 'prompt.completed':
      case 'prompt.failed':
      case 'prompt.cancelled': {
        const parentCall = parentCallOf(event.prompt);
        if (parentCall) this.#track(this.#decideParent(parentCall, event.prompt.id, event.userId));
        if (event.type === 'prompt.cancelled') this.#track(this.#cancelChildren(event.prompt));
        return;
      }
      case 'prompt.output-updated': {
        // A suspended agent call the user decided otherwise (rejected, answered, skipped): the parent goes on
        // without the child, which would otherwise wait for ever.
        const { output } = event;
        if (output.type !== 'tool' || !this.registry.byToolId(output.toolId)) return;
        const decision = output.approval?.decision;
        if (decision === 'rejected' || decision === 'answered' || decision === 'skipped') {
          this.#track(this.#cancelChild(childPromptId(output.id), event.userId));
        }
        return;
      }
      case 'prompt.approval-requested':
        if (this.registry.byToolId(event.toolId)) {
          this.#track(this.#resumeIfChildEnded(event.toolCallId, event.userId));
        }
        return;
      default:
        return;
    }
  }

  /** The child of an agent call that waits: decide the call if the child has ended. */
  async #resumeIfChildEnded(toolCallId: string, userId: string): Promise<void> {
    const child = await this.platform.store.prompts.get(childPromptId(toolCallId));
    if (!child || child.userId !== userId || !isFinalState(child.state)) return;
    await this.#decideParent(toolCallId, child.id, userId);
  }

  /**
   * Approves the parent's call `toolCallId`, so that it runs again and returns its child's run: only when it
   * is an agent call of this plugin, suspended (pending), whose child is `childId`, of the same user.
   */
  async #decideParent(toolCallId: string, childId: string, userId: string): Promise<void> {
    if (childPromptId(toolCallId) !== childId) return;
    const parent = (await this.platform.store.prompts.findByToolCall(toolCallId)) as Prompt | undefined;
    if (!parent || parent.userId !== userId || parent.state !== 'waiting_for_approval') return;
    const call = parent.output.find((o) => o.type === 'tool' && o.id === toolCallId);
    if (call?.type !== 'tool' || call.result?.type !== 'pending' || !this.registry.byToolId(call.toolId))
      return;
    try {
      const run = await this.platform.decide(toolCallId, { userId, approve: true });
      run.done.catch((error: unknown) => this.reportError(error));
    } catch (error) {
      // Decided meanwhile (another process, the user), or gone: nothing to do.
      if (!ConflictError.is(error) && !NotFoundError.is(error)) throw error;
    }
  }

  /** A parent cancelled: cancel the children of its `agent-run` outputs that have not ended. */
  async #cancelChildren(parent: Prompt): Promise<void> {
    const children = new Set<string>();
    for (const output of parent.output) if (output.type === 'agent-run') children.add(output.promptId);
    for (const id of children) await this.#cancelChild(id, parent.userId);
  }

  /** Cancels the child `id` of the user if it exists and has not ended. */
  async #cancelChild(id: string, userId: string): Promise<void> {
    const child = await this.platform.store.prompts.get(id);
    if (!child || child.userId !== userId || isFinalState(child.state)) return;
    if (typeof child.metadata?.agent !== 'string') return;
    try {
      await this.platform.cancel(id, { userId });
    } catch (error) {
      if (!ConflictError.is(error) && !NotFoundError.is(error)) throw error;
    }
  }

  /**
   * Once, when the platform opens: the waiting prompts whose pending call is an agent call whose child
   * ended (while no process ran the plugin, or between a crash and now) are decided. The store has no
   * paged read of a state across users, so this reads every waiting prompt once.
   */
  async sweep(): Promise<void> {
    const waiting = (await this.platform.store.prompts.listByState('waiting_for_approval')) as Prompt[];
    for (const prompt of waiting) {
      if (this.signal.aborted) return;
      for (const output of prompt.output) {
        if (output.type !== 'tool' || output.result?.type !== 'pending') continue;
        if (!this.registry.byToolId(output.toolId)) continue;
        await this.#resumeIfChildEnded(output.id, prompt.userId);
      }
    }
  }
}

/** The parent call of a child prompt of this plugin (its `metadata.parent.toolCallId`), if any. */
function parentCallOf(prompt: Prompt): string | undefined {
  const metadata = prompt.metadata;
  if (typeof metadata?.agent !== 'string') return undefined;
  const parent = metadata.parent as { toolCallId?: unknown } | undefined;
  return typeof parent?.toolCallId === 'string' ? parent.toolCallId : undefined;
}
