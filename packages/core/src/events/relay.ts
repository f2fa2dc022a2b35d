import type { EventBus, RelayRoutes, RelayTopic } from './event-bus.ts';
import { isLoopEndEvent, type TesseraEvent } from './events.ts';

export type { RelayRoutes, RelayTopic };

/** What crosses between processes: an event for the subscribers there, or a request to cancel a prompt. */
export type RelayMessage =
  | { kind: 'event'; event: TesseraEvent }
  | { kind: 'cancel'; promptId: string; conversationId: string };

/**
 * The topics a message goes to, in this order: its conversation's, then, for a prompt's change of state, its
 * user's. A process following several of them receives it once (a routed relay's part).
 */
export function relayTopics(message: RelayMessage): RelayTopic[] {
  if (message.kind === 'cancel') return [`conversation:${message.conversationId}`];
  const { event } = message;
  const topics: RelayTopic[] = [`conversation:${event.conversationId}`];
  if (event.type === 'prompt.started' || event.type === 'prompt.resumed' || isLoopEndEvent(event)) {
    topics.push(`user:${event.userId}`);
  }
  return topics;
}

/**
 * Carries messages between the platform processes that share a store, so that a subscriber in any process
 * sees the prompts' events and a prompt can be cancelled from any process. A store that several
 * processes share offers one (`Store.relay`); a one-process store needs none.
 */
export interface EventRelay {
  /** Sends to the other processes, in call order. Never throws and never waits: the loop calls it. */
  publish(message: RelayMessage): void;
  /** Receives what the other processes publish (not this process's own messages). */
  subscribe(handler: (message: RelayMessage) => void): () => void;
  /**
   * A relay that routes has these: then a process receives only the messages of the topics it follows
   * (`relayTopics`), each once, and the platform says which (`PlatformEvents.follow`: `add` when the first
   * interest in a topic starts, `delete` when the last ends). A relay without them sends every message to
   * every process.
   */
  readonly routes?: RelayRoutes;
}

/**
 * Joins a platform's event bus to a relay: local events go out, events from elsewhere are published
 * locally (and not sent back out), cancel requests reach `onCancel`, and the topics the bus follows are
 * the relay's routes.
 */
export function bridgeRelay(
  relay: EventRelay,
  bus: EventBus,
  onCancel: (promptId: string) => void,
): () => void {
  const outgoing = bus.subscribe({ local: true }, ({ seq: _, ...event }) => {
    relay.publish({ kind: 'event', event });
  });
  const incoming = relay.subscribe((message) => {
    if (message.kind === 'cancel') return onCancel(message.promptId);
    bus.publish(message.event, { relayed: true });
  });
  const unroute = relay.routes && bus.routeTo(relay.routes);
  return () => {
    outgoing();
    incoming();
    unroute?.();
  };
}
