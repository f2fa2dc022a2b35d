/**
 * Looks for prompts whose process died, every `intervalMs` while the platform is open, so that a live
 * process resumes them without waiting for a restart. One check at a time; a check that fails is reported
 * and the next one runs as planned. Its timer never keeps the process alive.
 */
export class OrphanWatcher {
  readonly #check: () => Promise<void>;
  readonly #intervalMs: number;
  readonly #report: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;
  #stopped = false;

  constructor(check: () => Promise<void>, intervalMs: number, report: (error: unknown) => void) {
    this.#check = check;
    this.#intervalMs = intervalMs;
    this.#report = report;
  }

  /** Starts checking (once; never after `stop()`, nor with an interval of 0). */
  start(): void {
    if (this.#stopped || this.#timer || this.#checking || !(this.#intervalMs > 0)) return;
    this.#schedule();
  }

  /** Stops checking, and resolves once a check in progress has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#checking;
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#checking = this.#check()
        .catch((error: unknown) => {
          try {
            this.#report(error);
          } catch {
            // A reporter that throws must not stop the checks.
          }
        })
        .finally(() => {
          this.#checking = undefined;
          if (!this.#stopped) this.#schedule();
        });
    }, this.#intervalMs);
    this.#timer.unref();
  }
}
