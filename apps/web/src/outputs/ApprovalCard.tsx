import { useState } from 'react';
import type { Output } from '../api.ts';
import { PauseIcon } from '../icons.tsx';
import type { EditedArguments } from './ArgumentsEditor.tsx';
import { EditableArguments } from './EditableArguments.tsx';
import './outputs.css';

/**
 * A decision on a pending call, as the server takes it: approve (with `input`, edited arguments), reject,
 * answer (the call's result in the tool's place; the tool does not run) or skip (the tool does not run, the
 * assistant goes on without it).
 */
export type CallDecision =
  | { approve: true; input?: unknown }
  | { approve: false; reason?: string }
  | { answer: unknown; reason?: string }
  | { skip: true; reason?: string };

/** Decides a call. */
export type Decide = (toolCallId: string, decision: CallDecision) => Promise<void>;

/** What the user typed as an answer: JSON when it parses (`{"balance": 120}`, `42`), else the text itself. */
export function answerValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A tool call waiting for the user: what it would do, why it needs approval, and the decisions. A call that
 * started and then asked to wait (a tool's suspendCall: an agent waiting on its sub-agent, whose run shows
 * below it) has nothing to approve: it shows as a line saying what it waits for, its other decisions folded
 * (`full` shows them as a card, for a caller that folds them itself).
 */
export function ApprovalCard({
  output,
  onDecide,
  full = false,
}: {
  output: Output;
  onDecide: Decide;
  full?: boolean;
}) {
  if (typeof output.startedAt === 'string' && !full)
    return <SuspendedCall output={output} onDecide={onDecide} />;
  return <DecisionCard output={output} onDecide={onDecide} />;
}

/** A suspended call, in its conversation: what it waits for, and that it goes on by itself once decided. */
function SuspendedCall({ output, onDecide }: { output: Output; onDecide: Decide }) {
  const reason = (output.result as { reason?: string }).reason;
  return (
    <section className="suspended-call" aria-label={`${String(output.toolId)} waits`}>
      <div className="suspended-call-head">
        <span className="approval-icon">
          <PauseIcon />
        </span>
        <p>
          <code>{String(output.toolId)}</code> waits{reason ? `: ${reason}` : '.'} It goes on by itself once
          that is decided.
        </p>
      </div>
      <details className="suspended-call-more">
        <summary>Other decisions</summary>
        <DecisionCard output={output} onDecide={onDecide} />
      </details>
    </section>
  );
}

/** The decisions on a pending call. */
function DecisionCard({ output, onDecide }: { output: Output; onDecide: Decide }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [edited, setEdited] = useState<EditedArguments>();
  const [answering, setAnswering] = useState(false);
  const [answer, setAnswer] = useState('');
  const pending = output.result as { reason: string };
  // A call that started and then asked to wait (a tool's suspendCall: a sub-agent waiting for you, a job):
  // nothing to approve before it runs; "Check again" runs it again, which goes on once what it waits for is done.
  const waiting = typeof output.startedAt === 'string';
  const decide = async (choice: 'approve' | 'reject' | 'skip' | 'answer') => {
    setBusy(true);
    setError(undefined);
    const comment = reason.trim() ? { reason: reason.trim() } : {};
    const decision: CallDecision =
      choice === 'approve'
        ? { approve: true, ...(edited && 'value' in edited && { input: edited.value }) }
        : choice === 'reject'
          ? { approve: false, ...comment }
          : choice === 'skip'
            ? { skip: true, ...comment }
            : { answer: answerValue(answer.trim()), ...comment };
    try {
      await onDecide(output.id, decision);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <section
      className="approval-card"
      aria-label={`${waiting ? 'Waiting' : 'Approval needed'} for ${String(output.toolId)}`}
    >
      <div className="approval-head">
        <span className="approval-icon">
          <PauseIcon />
        </span>
        <div>
          <strong>{waiting ? `${String(output.toolId)} is waiting` : 'Approval needed'}</strong>
          <p className="approval-reason">{pending.reason}</p>
        </div>
      </div>
      {waiting ? null : <EditableArguments output={output} disabled={busy} onEdit={setEdited} />}
      <label className="approval-comment">
        <span>Reason if you reject, skip or answer (the assistant reads it)</span>
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          disabled={busy}
          placeholder="Optional"
        />
      </label>
      {answering && (
        <label className="approval-comment">
          <span>Your answer, given as the call's result instead of running it (JSON, or plain text)</span>
          <textarea
            className="approval-answer"
            value={answer}
            onChange={(e) => setAnswer(e.target.value)}
            disabled={busy}
            rows={3}
          />
        </label>
      )}
      <div className="approval-actions">
        {answering ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy || answer.trim() === ''}
              onClick={() => decide('answer')}
            >
              Send answer
            </button>
            <button type="button" disabled={busy} onClick={() => setAnswering(false)}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy || (edited !== undefined && 'error' in edited)}
              title={waiting ? 'Runs the call again: it goes on if what it waits for is done' : undefined}
              onClick={() => decide('approve')}
            >
              {waiting ? 'Check again' : 'Approve'}
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => decide('reject')}>
              Reject
            </button>
            <button
              type="button"
              disabled={busy}
              title="The call does not run; the assistant goes on without it"
              onClick={() => decide('skip')}
            >
              Skip
            </button>
            <button
              type="button"
              disabled={busy}
              title="Give the call's result yourself; the tool does not run"
              onClick={() => setAnswering(true)}
            >
              Answer…
            </button>
          </>
        )}
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </section>
  );
}
