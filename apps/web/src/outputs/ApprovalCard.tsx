import { useState } from 'react';
import type { Output } from '../api.ts';
import { PauseIcon } from '../icons.tsx';
import type { EditedArguments } from './ArgumentsEditor.tsx';
import { EditableArguments } from './EditableArguments.tsx';
import './outputs.css';

/** Decides a call; approving with `edit` runs it with those arguments instead of the model's. */
export type Decide = (
  toolCallId: string,
  approve: boolean,
  reason?: string,
  edit?: { input: unknown },
) => Promise<void>;

/** A tool call waiting for the user: what it would do, why it needs approval, and the two decisions. */
export function ApprovalCard({ output, onDecide }: { output: Output; onDecide: Decide }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [edited, setEdited] = useState<EditedArguments>();
  const pending = output.result as { reason: string };
  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const edit = approve && edited && 'value' in edited ? { input: edited.value } : undefined;
      const comment = approve ? undefined : reason.trim() || undefined;
      await (edit ? onDecide(output.id, approve, comment, edit) : onDecide(output.id, approve, comment));
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
      <EditableArguments output={output} disabled={busy} onEdit={setEdited} />
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
        <button
          type="button"
          className="primary"
          disabled={busy || (edited !== undefined && 'error' in edited)}
          onClick={() => decide(true)}
        >
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
