import type { Store } from '../src/index.ts';

/** What every write of a stopped process fails with: nothing it does afterwards reaches the store. */
export class ProcessStopped extends Error {
  constructor() {
    super('The process has stopped.');
  }
}

const WRITES: Record<'conversations' | 'prompts' | 'records', readonly string[]> = {
  conversations: ['create', 'delete', 'setPluginState', 'rename'],
  prompts: ['create', 'createWithHistory', 'appendOutput', 'update'],
  records: ['put', 'delete'],
};

/**
 * A store as a process sees it that stops (is killed) right after its `limit`-th write: that write lands,
 * every later one fails with `ProcessStopped` and leaves `inner` as it was. `inner` then holds exactly what
 * the killed process left, for a new platform to recover. Reads go through.
 */
export function stoppingStore(inner: Store, limit = Number.POSITIVE_INFINITY) {
  let writes = 0;
  const write = (run: () => Promise<unknown>) => {
    if (writes >= limit) return Promise.reject(new ProcessStopped());
    writes++;
    return run();
  };
  const wrap = <T extends object>(target: T, names: readonly string[]): T =>
    new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key);
        if (typeof value !== 'function') return value;
        return names.includes(key as string)
          ? (...args: unknown[]) => write(() => value.apply(object, args))
          : value.bind(object);
      },
    });
  const store: Store = {
    conversations: wrap(inner.conversations, WRITES.conversations),
    prompts: wrap(inner.prompts, WRITES.prompts),
    records: wrap(inner.records, WRITES.records),
  };
  return {
    store,
    /** How many writes landed. */
    writes: () => writes,
    stopped: () => writes >= limit,
  };
}
