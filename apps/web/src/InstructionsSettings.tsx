import { useEffect, useId, useState } from 'react';
import type { Api } from './api.ts';

/** The server's limit (`MAX_INSTRUCTIONS` in the server's user-instructions module). */
const MAX_LENGTH = 4_000;

type Status =
  | { kind: 'loading' }
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'error'; message: string };

/** Standing instructions the model reads in every prompt of this user's, kept by the server. */
export function InstructionsSettings({ api }: { api: Api }) {
  const id = useId();
  const [text, setText] = useState('');
  const [saved, setSaved] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    api.instructions().then(
      (current) => {
        if (!live) return;
        setText(current);
        setSaved(current);
        setStatus({ kind: 'idle' });
      },
      (error: unknown) => live && setStatus({ kind: 'error', message: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [api]);

  async function save() {
    setStatus({ kind: 'saving' });
    try {
      const stored = await api.setInstructions(text.trim());
      setText(stored);
      setSaved(stored);
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus({ kind: 'error', message: messageOf(error) });
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Instructions</h2>
      <p>
        What the model should always know or do in your conversations, e.g. “Answer in French” or “I work in
        finance”.
      </p>
      <form
        className="instructions"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label htmlFor={`${id}-text`}>Instructions for the model</label>
        <textarea
          id={`${id}-text`}
          rows={5}
          maxLength={MAX_LENGTH}
          value={text}
          disabled={status.kind === 'loading'}
          onChange={(event) => {
            setText(event.target.value);
            if (status.kind === 'saved') setStatus({ kind: 'idle' });
          }}
        />
        <div className="instructions-actions">
          <button
            type="submit"
            disabled={status.kind === 'saving' || status.kind === 'loading' || text === saved}
          >
            Save instructions
          </button>
          <span className="muted" aria-live="polite">
            {status.kind === 'saved' && 'Saved: they apply from your next message.'}
            {status.kind === 'saving' && 'Saving…'}
            {status.kind !== 'saved' && status.kind !== 'saving' && `${text.length} / ${MAX_LENGTH}`}
          </span>
        </div>
        {status.kind === 'error' && <p role="alert">{status.message}</p>}
      </form>
    </section>
  );
}

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : 'Could not reach the server.';
