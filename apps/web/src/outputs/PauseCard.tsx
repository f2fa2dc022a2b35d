import { useState } from 'react';
import type { Output } from '../api.ts';
import { PauseIcon } from '../icons.tsx';
import './loop-control.css';

export type DecidePause = (pauseId: string, choice: 'continue' | 'stop') => Promise<void>;

const SOURCE_TITLE: Record<string, string> = {
  doom_loop: 'The assistant seems to be repeating itself',
  plugin: 'Paused for your decision',
};

/**
 * A pause outside any tool call: the model repeating the same calls (a doom loop), or a plugin asking. While
 * pending it offers Continue and Stop; once decided it says what was chosen.
 */
export function PauseCard({ output, onDecide }: { output: Output; onDecide: DecidePause }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const title = SOURCE_TITLE[String(output.source)] ?? SOURCE_TITLE.plugin;
  const decision = output.decision as 'continue' | 'stop' | undefined;
  const decide = async (choice: 'continue' | 'stop') => {
    setBusy(true);
    setError(undefined);
    try {
      await onDecide(output.id, choice);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  if (decision) {
    return (
      <p className="pause-note">
        <PauseIcon /> {title}: {String(output.reason)} — you chose to{' '}
        <strong>{decision === 'continue' ? 'continue' : 'stop'}</strong>.
      </p>
    );
  }
  return (
    <section className="approval-card pause-card" aria-label={title}>
      <div className="approval-head">
        <span className="approval-icon">
          <PauseIcon />
        </span>
        <div>
          <strong>{title}</strong>
          <p className="approval-reason">{String(output.reason)}</p>
          {output.plugin ? (
            <p className="pause-plugin">Asked by the {String(output.plugin)} plugin.</p>
          ) : null}
        </div>
      </div>
      <div className="approval-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => decide('continue')}>
          Continue
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => decide('stop')}>
          Stop
        </button>
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </section>
  );
}

/** A message the user sent while the prompt ran, as the model read it at a round boundary. */
export function SteeringNote({ output }: { output: Output }) {
  return (
    <div className="steering-note">
      <span className="steering-label">You, while it worked</span>
      <p>{String(output.text)}</p>
    </div>
  );
}
