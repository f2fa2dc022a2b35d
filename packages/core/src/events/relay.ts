import type { EventBus } from './event-bus.ts';
import type { TesseraEvent } from './events.ts';

/** What crosses between processes: an event for the subscribers there, or a request to cancel a prompt. */
export type RelayMessage = { kind: 'event'; event: TesseraEvent } | { kind: 'cancel'; promptId: string };

/**
 * Carries messages between the platform processes that share a store, so that a subscriber in any process
 * sees every prompt's events and a prompt can be cancelled from any process. A store that several
 * processes share offers one (`Store.relay`); a one-process store needs none.
 */
export interface EventRelay {
  /** Sends to the other processes, in call order. Never throws and never waits: the loop calls it. */
  publish(message: RelayMessage): void;
  /** Receives what the other processes publish (not this process's own messages). */
  subscribe(handler: (message: RelayMessage) => void): () => void;
}

/**
 * Joins a platform's event bus to a relay: local events go out, events from elsewhere are published
 * locally (and not sent back out), and cancel requests reach `onCancel`.
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
  return () => {
    outgoing();
    incoming();
  };
}
