import type { Prompt } from '../model/prompt.ts';

type Running = { controller: AbortController; done: Promise<Prompt> };
type Starting = { abort: boolean; started: Promise<void>; settle: () => void };

/**
 * The prompt loops this platform runs, and the prompts it is about to run: reserved before the store hands
 * them over (a create, an approval's claim, a recovery's claim) and until their loop starts, so that nothing
 * else in this process (a periodic recovery, a cancel) starts a second loop for them meanwhile.
 */
export class LocalRuns {
  readonly #running = new Map<string, Running>();
  readonly #starting = new Map<string, Starting>();

  /** Whether this platform runs the prompt or is about to. */
  has(promptId: string): boolean {
    return this.#running.has(promptId) || this.#starting.has(promptId);
  }

  /** The prompts this platform runs or is about to: a store must leave them alone. */
  ids(): string[] {
    return [...this.#running.keys(), ...this.#starting.keys()];
  }

  /** Reserves a prompt for a loop about to start here; false when it is taken. Then `run` or `release` it. */
  reserve(promptId: string): boolean {
    if (this.has(promptId)) return false;
    let settle = () => {};
    const started = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#starting.set(promptId, { abort: false, started, settle });
    return true;
  }

  /** Gives up a reservation whose loop will not start here. */
  release(promptId: string): void {
    this.#starting.get(promptId)?.settle();
    this.#starting.delete(promptId);
  }

  /**
   * Runs a prompt's loop, stopped by `abort(promptId)` or by `external`; resolves as the loop does. A
   * reservation becomes the run.
   */
  run(
    promptId: string,
    loop: (signal: AbortSignal) => Promise<Prompt>,
    external?: AbortSignal,
  ): Promise<Prompt> {
    const controller = new AbortController();
    const starting = this.#starting.get(promptId);
    this.#starting.delete(promptId);
    if (external?.aborted || starting?.abort) controller.abort();
    external?.addEventListener('abort', () => controller.abort(), { once: true });
    const done = loop(controller.signal).finally(() => this.#running.delete(promptId));
    this.#running.set(promptId, { controller, done });
    starting?.settle();
    return done;
  }

  /**
   * Stops a prompt's loop (one about to start, as soon as it starts) and resolves with the prompt once the
   * loop has stopped; with `undefined` when no loop of it runs here.
   */
  async abort(promptId: string): Promise<Prompt | undefined> {
    const starting = this.#starting.get(promptId);
    if (starting) {
      starting.abort = true;
      await starting.started;
    }
    const running = this.#running.get(promptId);
    running?.controller.abort();
    return running?.done;
  }

  /** Stops every loop, and resolves once all have stopped. */
  async abortAll(): Promise<void> {
    await Promise.allSettled(this.ids().map((promptId) => this.abort(promptId)));
  }
}
