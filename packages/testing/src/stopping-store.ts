import type { Store } from '@tessera/core';

/** What every write of a stopped process fails with: nothing it does afterwards reaches the store. */
export class ProcessStopped extends Error {
  constructor() {
    super('The process has stopped.');
    this.name = 'ProcessStopped';
  }
}

/** The writes that are counted: the `limit`-th lands, every later one fails. */
const WRITES = {
  conversations: ['create', 'delete', 'setPluginState', 'rename', 'fork'],
  prompts: ['create', 'createWithHistory', 'appendOutput', 'update'],
  records: ['put', 'delete'],
  messages: ['add', 'remove'],
} as const;

/** Claims of orphans: not counted (a process claims on every `recover()`), but refused once stopped. */
const CLAIMS: readonly string[] = ['claimOrphans', 'claimOrphan'];

/** A store that stops after its `limit`-th write (see `stoppingStore`). */
export type StoppingStore = {
  /** The store as the process sees it: give it to the process's platform. */
  store: Store;
  /** How many writes landed. */
  writes(): number;
  /** Whether the process has stopped (its `limit`-th write landed). */
  stopped(): boolean;
  /** Resolves once the process has stopped (never, without a limit or before it is reached). */
  untilStopped(): Promise<void>;
};

/**
 * A store as a process sees it that stops (is killed) right after its `limit`-th write: that write lands,
 * every later one (and every claim of orphans) fails with `ProcessStopped` and leaves `inner` as it was.
 * `inner` then holds exactly what the killed process left, for a new platform over it to recover. Reads go
 * through. Without a limit it never stops: run a scenario once through it to count its writes, then run it
 * again stopping after each of them in turn (a "kill at every write" test). It has no relay and no `close`:
 * the process is alone, and closing it leaves `inner` open.
 *
 * @example
 * ```ts
 * const full = stoppingStore(createMemoryStore());
 * await scenario(full.store);
 * for (let limit = 1; limit <= full.writes(); limit++) {
 *   const inner = createMemoryStore();
 *   await scenario(stoppingStore(inner, limit).store).catch((error) => {
 *     if (!(error instanceof ProcessStopped)) throw error;
 *   });
 *   const platform = createPlatform({ store: inner, model, plugins });
 *   await Promise.all((await platform.recover()).map((run) => run.done));
 *   // ...assert what must hold whatever write the process stopped after
 * }
 * ```
 */
export function stoppingStore(inner: Store, limit = Number.POSITIVE_INFINITY): StoppingStore {
  let writes = 0;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const write = (run: () => Promise<unknown>) => {
    if (writes >= limit) return Promise.reject(new ProcessStopped());
    writes++;
    if (writes >= limit) stop();
    return run();
  };
  const claim = (run: () => Promise<unknown>) =>
    writes >= limit ? Promise.reject(new ProcessStopped()) : run();
  const wrap = <T extends object>(target: T, names: readonly string[]): T =>
    new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key);
        if (typeof value !== 'function') return value;
        if (names.includes(key as string))
          return (...args: unknown[]) => write(() => value.apply(object, args));
        if (CLAIMS.includes(key as string))
          return (...args: unknown[]) => claim(() => value.apply(object, args));
        return value.bind(object);
      },
    });
  const store: Store = {
    conversations: wrap(inner.conversations, WRITES.conversations),
    prompts: wrap(inner.prompts, WRITES.prompts),
    records: wrap(inner.records, WRITES.records),
    ...(inner.messages && { messages: wrap(inner.messages, WRITES.messages) }),
  };
  if (limit <= 0) stop();
  return { store, writes: () => writes, stopped: () => writes >= limit, untilStopped: () => stopped };
}
