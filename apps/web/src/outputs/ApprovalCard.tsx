import { useState } from 'react';
import type { Output } from '../api.ts';
import { PauseIcon } from '../icons.tsx';
import { showValue } from './ToolCard.tsx';
import './outputs.css';

export type Decide = (toolCallId: string, approve: boolean, reason?: string) => Promise<void>;

/**
 * The arguments the call would run with. This is where "edit the arguments before approving" goes: core's
 * `approve(id, { userId, input })` takes edited arguments, but the HTTP route and api.ts do not yet; when they
 * do, this section gets an "Edit" button turning the block into a JSON field whose value goes with Approve.
 */
function ApprovalArguments({ output }: { output: Output }) {
  return (
    <section className="approval-arguments" aria-label="Arguments">
      <div className="approval-arguments-head">
        <code className="tool-name">{String(output.toolId)}</code>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long value scrolls; the keyboard must reach it */}
      <pre tabIndex={0} className="json-block approval-input">
        {showValue(output.input ?? {})}
      </pre>
    </section>
  );
}

/** A tool call waiting for the user: what it would do, why it needs approval, and the two decisions. */
export function ApprovalCard({ output, onDecide }: { output: Output; onDecide: Decide }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const pending = output.result as { reason: string };
  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await onDecide(output.id, approve, approve ? undefined : reason.trim() || undefined);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <section className="approval-card" aria-label={`Approval needed for ${String(output.toolId)}`}>
      <div className="approval-head">
        <span className="approval-icon">
          <PauseIcon />
        </span>
        <div>
          <strong>Approval needed</strong>
          <p className="approval-reason">{pending.reason}</p>
        </div>
      </div>
      <ApprovalArguments output={output} />
      <label className="approval-comment">
        <span>Reason if you reject (the assistant reads it)</span>
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          disabled={busy}
          placeholder="Optional"
        />
      </label>
      <div className="approval-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => decide(true)}>
          Approve
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => decide(false)}>
          Reject
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
