import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a deleted conversation can still be brought back: the DELETE is sent only after this. */
export const UNDO_MS = 6_000;

/** `wasOpen`: it was the conversation on screen (Undo opens it again). */
export type PendingDelete = { id: string; title: string; wasOpen: boolean };

/**
 * Deletes with an undo: the conversation leaves the list at once, but the server is asked to delete it
 * only when the undo time is over. Leaving the page sends what is pending right away (`keepalive`, so the
 * request outlives the page); the server has no restore, so this is the only way to make undo possible.
 */
export function usePendingDeletes(
  remove: (id: string, keepalive: boolean) => Promise<void>,
  onDone: () => void,
) {
  const [pending, setPending] = useState<PendingDelete[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [failure, setFailure] = useState<string>();

  const commit = useCallback(
    (id: string, keepalive = false) => {
      clearTimeout(timers.current.get(id));
      timers.current.delete(id);
      setPending((list) => list.filter((p) => p.id !== id));
      remove(id, keepalive)
        .catch((e: Error) => setFailure(`The conversation could not be deleted: ${e.message}`))
        .finally(onDone);
    },
    [remove, onDone],
  );

  const schedule = useCallback(
    (item: PendingDelete) => {
      setPending((list) => [...list.filter((p) => p.id !== item.id), item]);
      timers.current.set(
        item.id,
        setTimeout(() => commit(item.id), UNDO_MS),
      );
    },
    [commit],
  );

  const undo = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setPending((list) => list.filter((p) => p.id !== id));
  }, []);

  useEffect(() => {
    const flush = () => {
      for (const id of [...timers.current.keys()]) commit(id, true);
    };
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [commit]);

  return { pending, schedule, undo, commit, failure, clearFailure: () => setFailure(undefined) };
}
