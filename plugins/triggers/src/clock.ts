/** Time as the scheduler sees it. Injectable so tests run days of schedules in milliseconds. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once at `at` (or as soon after as possible); the returned function cancels it. */
  setTimer(at: number, callback: () => unknown): () => void;
}

// setTimeout overflows past ~24.8 days; longer sleeps are taken in steps.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The real clock. Its timers do not keep the process alive on their own. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(at, callback) {
    let timer: NodeJS.Timeout;
    const arm = () => {
      const delay = at - Date.now();
      timer =
        delay > MAX_TIMEOUT_MS ? setTimeout(arm, MAX_TIMEOUT_MS) : setTimeout(callback, Math.max(0, delay));
      timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
  },
};

type Timer = { at: number; callback: () => unknown };

const toMs = (time: Date | string | number): number =>
  typeof time === 'number' ? time : typeof time === 'string' ? Date.parse(time) : time.getTime();

/**
 * A clock that only moves when told to. `advanceTo` walks time forward timer by timer; timers due at the
 * same instant fire together (like processes sharing a store), and each firing is awaited, including the
 * work the callback returns, before time moves on.
 */
export class ManualClock implements Clock {
  #now: number;
  readonly #timers = new Set<Timer>();

  constructor(start: Date | string | number) {
    this.#now = toMs(start);
  }

  now(): number {
    return this.#now;
  }

  setTimer(at: number, callback: () => unknown): () => void {
    const timer = { at, callback };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /** When the timers that are waiting will fire, earliest first. */
  pendingTimers(): number[] {
    return [...this.#timers].map((t) => t.at).sort((a, b) => a - b);
  }

  async advanceTo(target: Date | string | number): Promise<void> {
    const end = toMs(target);
    // A callback that re-arms at "now" forever would hang a test; fail loudly instead.
    for (let firings = 0; ; firings++) {
      if (firings > 100_000) throw new Error('ManualClock: timers keep firing without time moving on.');
      const due = [...this.#timers].filter((t) => t.at <= end);
      if (due.length === 0) break;
      const at = Math.min(...due.map((t) => t.at));
      const batch = due.filter((t) => t.at === at);
      for (const timer of batch) this.#timers.delete(timer);
      this.#now = Math.max(this.#now, at);
      await Promise.all(batch.map((timer) => timer.callback()));
    }
    this.#now = Math.max(this.#now, end);
  }

  advance(ms: number): Promise<void> {
    return this.advanceTo(this.#now + ms);
  }
}
