import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Api, Conversation, PendingApproval, PendingPause } from './api.ts';
import { applyListEvent, type ListEvent } from './conversation-list-events.ts';

const LIST_EVENTS: ListEvent['type'][] = [
  'conversation.created',
  'conversation.renamed',
  'conversation.deleted',
];

/** `load`, never twice at once: called while it runs, it runs once more after (the latest state wins). */
function oneAtATime(load: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = load()
      .catch(() => {}) // the next event or reconnection loads again
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void run();
        }
      });
    return running;
  };
  return run;
}

/**
 * The user's conversations and what waits for them (calls to approve, pauses to decide), kept live by the
 * user's own event stream (GET /api/me/events): conversations created, renamed or deleted anywhere (another
 * tab, the CLI, a plugin) show without a reload, and each change of a waiting state reloads the waiting lists.
 * The list is read again each time the stream is (re)attached, and the changes that arrive while it loads are
 * applied again on top of what it returns, so a load that read the store a moment earlier never hides them.
 * `api` is undefined until the user is known: no stream before.
 */
export function useLiveConversations(api: Api | undefined) {
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [approvals, setApprovals] = useState<PendingApproval[]>([]);
  const [pauses, setPauses] = useState<PendingPause[]>([]);
  /** The changes received during each load in flight. */
  const duringLoads = useRef(new Set<ListEvent[]>());
  /** The ids the list has now, for the stream's handlers. */
  const listed = useRef(new Set<string>());
  listed.current = new Set(conversations.map((c) => c.id));

  const refresh = useCallback(async () => {
    if (!api) return;
    const during: ListEvent[] = [];
    duringLoads.current.add(during);
    try {
      const list = await api.conversations();
      setConversations(during.reduce(applyListEvent, list));
    } finally {
      duringLoads.current.delete(during);
    }
  }, [api]);

  const reloadWaiting = useMemo(
    () =>
      oneAtATime(async () => {
        if (!api) return;
        const [calls, paused] = await Promise.all([api.approvals(), api.pauses()]);
        setApprovals(calls);
        setPauses(paused);
      }),
    [api],
  );

  useEffect(() => {
    if (!api) return;
    let stopped = false;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const onListEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as ListEvent;
      for (const during of duringLoads.current) during.push(event);
      setConversations((list) => applyListEvent(list, event));
    };
    const connect = () => {
      source = new EventSource(api.userEventsUrl());
      for (const type of LIST_EVENTS) source.addEventListener(type, onListEvent as EventListener);
      source.addEventListener('conversation.waiting', ((message: MessageEvent<string>) => {
        void reloadWaiting();
        // A conversation the list does not have (made by another server process): read the list again.
        const { conversationId } = JSON.parse(message.data) as { conversationId: string };
        if (!listed.current.has(conversationId)) refresh().catch(() => {});
      }) as EventListener);
      // Attached (again, after a drop or a `reset`): read both lists now, so no change falls between.
      source.addEventListener('ready', () => {
        failures = 0;
        refresh().catch(() => {});
        void reloadWaiting();
      });
      source.onerror = () => {
        // The browser retries a dropped stream by itself, but not one refused (a proxy's 502 during a
        // restart, too many streams): then open a new one, backing off up to 15 s.
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        failures++;
        retry = setTimeout(connect, Math.min(15_000, 500 * 2 ** failures));
      };
    };
    connect();
    // At once too, not only once attached: the list shows even while the stream cannot be opened.
    refresh().catch(() => {});
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [api, refresh, reloadWaiting]);

  return { conversations, approvals, pauses, refresh, reloadWaiting };
}
