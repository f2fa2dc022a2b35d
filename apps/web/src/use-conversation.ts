import { useCallback, useEffect, useRef, useState } from 'react';
import { type Api, ApiError, type Conversation } from './api.ts';
import { useChildRunsState } from './child-runs.ts';
import { applyEvent, type ConversationState, type ServerEvent } from './conversation-state.ts';
import type { QueuedMessage } from './QueuedMessages.tsx';
import { applyWaiting, notRecorded } from './waiting-messages.ts';

/** The server says there is no such conversation (deleted, another user's, or not an id at all). */
const isMissing = (e: unknown) =>
  e instanceof ApiError &&
  (e.code === 'not_found' || e.code === 'invalid_input' || e.code === 'invalid_request');

const EVENT_TYPES = [
  'prompt.started',
  'prompt.output',
  'prompt.output-updated',
  'prompt.output-removed',
  'prompt.text-delta',
  'prompt.approval-requested',
  'prompt.resumed',
  'prompt.completed',
  'prompt.failed',
  'prompt.cancelled',
  'prompt.pause-requested',
  'prompt.pause-decided',
  'prompt.steered',
  'message.queued',
  'message.removed',
];

/**
 * A conversation, loaded and then kept live by its event stream. EventSource reconnects by itself and sends
 * the last event id, so nothing is missed; a `reset` (the server cannot replay) reloads the whole record.
 * Events that arrive while a load is in flight are applied again on top of what it returns, so a load that
 * read the store a moment earlier never hides them. A conversation the server does not know (deleted, or a
 * mistyped address) ends as `notFound`, never as an endless reconnect. The stream also carries the events of
 * the prompts that run for the conversation's calls (sub-agents, at any depth), each with its own
 * conversation id: they go to `children`, never into the conversation's own prompts.
 */
export function useConversation(api: Api, conversationId: string | undefined) {
  const [conversation, setConversation] = useState<Conversation>();
  const [state, setState] = useState<ConversationState>({ prompts: [], streaming: {} });
  /** Messages sent while it worked (steering, follow-ups), until delivered or removed. */
  const [waiting, setWaiting] = useState<QueuedMessage[]>([]);
  const [connected, setConnected] = useState(false);
  // Whether the stream was ever up: the first connection is "connecting", a later one "reconnecting".
  const [wasConnected, setWasConnected] = useState(false);
  const [error, setError] = useState<string>();
  const [notFound, setNotFound] = useState(false);
  const inFlight = useRef<ServerEvent[] | undefined>(undefined);
  const {
    runs: childRuns,
    load: loadChild,
    apply: applyChild,
    clear: clearChildren,
  } = useChildRunsState(api);

  const reload = useCallback(async () => {
    if (!conversationId) return;
    inFlight.current = [];
    try {
      const [detail, messages] = await Promise.all([
        api.conversation(conversationId),
        api.messages(conversationId),
      ]);
      const during = inFlight.current ?? [];
      setConversation(detail.conversation);
      setState(during.reduce(applyEvent, { prompts: detail.prompts, streaming: {} }));
      setWaiting(during.reduce(applyWaiting, notRecorded(messages, detail.prompts)));
      setError(undefined);
    } catch (e) {
      if (isMissing(e)) setNotFound(true);
      else setError((e as Error).message);
    } finally {
      inFlight.current = undefined;
    }
  }, [api, conversationId]);

  useEffect(() => {
    setState({ prompts: [], streaming: {} });
    clearChildren();
    setWaiting([]);
    setConversation(undefined);
    setConnected(false);
    setWasConnected(false);
    setNotFound(false);
    if (!conversationId) return;
    let stopped = false;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const connect = () => {
      source = new EventSource(api.eventsUrl(conversationId));
      const onEvent = (message: MessageEvent<string>) => {
        const event = JSON.parse(message.data) as ServerEvent;
        // A sub-agent's prompt (another conversation's, running for a call of this one).
        if (event.conversationId !== undefined && event.conversationId !== conversationId) {
          applyChild(event);
          return;
        }
        inFlight.current?.push(event);
        setState((s) => applyEvent(s, event));
        setWaiting((w) => applyWaiting(w, event));
      };
      for (const type of EVENT_TYPES) source.addEventListener(type, onEvent as EventListener);
      // Attached: (re)load the record now, so no event can fall between the load and the stream.
      source.addEventListener('ready', () => {
        failures = 0;
        setConnected(true);
        setWasConnected(true);
        void reload();
      });
      source.onerror = () => {
        setConnected(false);
        // The browser retries a dropped stream by itself, but gives up on an error response (a proxy's 502
        // while the server restarts): then open a new one, backing off up to 15 s.
        if (source?.readyState !== EventSource.CLOSED) return;
        failures++;
        // The stream was refused: ask why. A conversation that does not exist is final; anything else
        // (a restart, a proxy) is retried.
        api.conversation(conversationId).then(
          () => {
            if (!stopped) retry = setTimeout(connect, Math.min(15_000, 500 * 2 ** failures));
          },
          (e: unknown) => {
            if (stopped) return;
            if (isMissing(e)) setNotFound(true);
            else retry = setTimeout(connect, Math.min(15_000, 500 * 2 ** failures));
          },
        );
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [api, conversationId, reload, applyChild, clearChildren]);

  const live = { waiting, connected, wasConnected, error, notFound, reload };
  return { conversation, ...state, childRuns, loadChild, ...live };
}
