import { useState } from 'react';
import { CloseIcon } from './icons.tsx';
import './outputs/loop-control.css';

export type QueuedMessage = { id: string; mode: 'steer' | 'queue'; input: string; createdAt: string };

const MODE_LABEL = { steer: 'Steering', queue: 'Queued' } as const;

/**
 * The messages waiting for the conversation, oldest first: steering the running answer reads at its next
 * step, follow-ups that run when it ends. Each can be removed until it is delivered.
 */
export function QueuedMessages({
  messages,
  onRemove,
}: {
  messages: QueuedMessage[];
  onRemove: (messageId: string) => Promise<void>;
}) {
  const [removing, setRemoving] = useState<string>();
  const [error, setError] = useState<string>();
  if (messages.length === 0) return null;
  const remove = async (id: string) => {
    setRemoving(id);
    setError(undefined);
    try {
      await onRemove(id);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setRemoving(undefined);
    }
  };
  return (
    <section className="queued-messages" aria-label="Waiting messages">
      <ul>
        {messages.map((message) => (
          <li key={message.id} className={`queued-message queued-${message.mode}`}>
            <span className="queued-mode">{MODE_LABEL[message.mode]}</span>
            <span className="queued-input">{message.input}</span>
            <button
              type="button"
              className="chip-remove"
              aria-label={`Remove “${message.input.slice(0, 40)}”`}
              disabled={removing === message.id}
              onClick={() => void remove(message.id)}
            >
              <CloseIcon />
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </section>
  );
}
