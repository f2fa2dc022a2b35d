import { useState } from 'react';
import type { Output } from '../api.ts';
import './outputs.css';

type Result =
  | { type: 'success'; output: unknown }
  | { type: 'error'; error: unknown }
  | { type: 'pending'; reason: string };

export type ToolStatus =
  | 'running'
  | 'queued'
  | 'success'
  | 'error'
  | 'pending'
  | 'rejected'
  | 'denied'
  | 'cancelled'
  /** The user gave the result; the tool did not run. */
  | 'answered'
  /** The user (or a plugin) skipped the call; it did not run. */
  | 'skipped';

/** Error codes that are a decision or a stop, not a failure: shown by their name, without the red. */
const NOT_FAILURES = new Set(['rejected', 'denied', 'cancelled', 'skipped']);

export function toolStatus(output: Output): ToolStatus {
  const result = output.result as Result | undefined;
  if (!result) return output.startedAt ? 'running' : 'queued';
  if ((output.approval as { decision?: string } | undefined)?.decision === 'answered') return 'answered';
  if (result.type === 'error') {
    const code = (result.error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && NOT_FAILURES.has(code)) return code as ToolStatus;
  }
  return result.type;
}

const duration = (output: Output) => {
  if (!output.startedAt || !output.endedAt) return undefined;
  const ms = Date.parse(output.endedAt as string) - Date.parse(output.startedAt as string);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

export const showValue = (value: unknown) =>
  typeof value === 'string' ? value : JSON.stringify(value, null, 2);

/** An error as its message when it has one (`{ code, message }`, what Tessera records), else as data. */
const errorText = (error: unknown) => {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : error;
};

const RESULT_HEADING: Record<ToolStatus, string> = {
  success: 'Result',
  error: 'Error',
  rejected: 'Rejected',
  answered: 'Your answer, given instead of running the tool',
  skipped: 'Skipped',
  denied: 'Denied',
  cancelled: 'Cancelled',
  pending: 'Waiting for approval',
  running: 'Result',
  queued: 'Result',
};

/** The words for a decision the user commented. */
const DECIDED: Record<string, string> = { rejected: 'Rejected', answered: 'Answered', skipped: 'Skipped' };

/** A tool call as a compact card: tool, arguments, status and duration; expands to the full input and result. */
export function ToolCard({ output }: { output: Output }) {
  const [open, setOpen] = useState(false);
  const status = toolStatus(output);
  const result = output.result as Result | undefined;
  const edited = output.editedInput !== undefined;
  const args = JSON.stringify((edited ? output.editedInput : output.input) ?? {});
  const approval = output.approval as { decision?: string; comment?: string } | undefined;
  return (
    <div className={`tool-card status-${status}`}>
      <button type="button" className="tool-summary" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tool-name">{String(output.toolId)}</span>
        <span className="tool-args">{args.length > 80 ? `${args.slice(0, 80)}…` : args}</span>
        {edited && (
          <span
            className="badge badge-edited"
            title={`Arguments edited by ${String(output.editedBy ?? 'you')}`}
          >
            edited
          </span>
        )}
        <span className={`badge badge-${status}`}>{status}</span>
        {duration(output) && <span className="tool-duration">{duration(output)}</span>}
      </button>
      {open && (
        <div className="tool-detail">
          <h4>Input</h4>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long value scrolls; the keyboard must reach it */}
          <pre tabIndex={0} className="json-block">
            {showValue(output.input ?? output.arguments)}
          </pre>
          {output.editedInput !== undefined && (
            <>
              <h4>Input as edited before approval</h4>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long value scrolls; the keyboard must reach it */}
              <pre tabIndex={0} className="json-block">
                {showValue(output.editedInput)}
              </pre>
            </>
          )}
          {approval?.comment && (
            <p className="tool-comment">
              {DECIDED[approval.decision ?? ''] ?? 'Decided'}: “{approval.comment}”
            </p>
          )}
          {result && (
            <>
              <h4>{RESULT_HEADING[status]}</h4>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long value scrolls; the keyboard must reach it */}
              <pre tabIndex={0} className="json-block">
                {showValue(
                  result.type === 'success'
                    ? result.output
                    : result.type === 'error'
                      ? errorText(result.error)
                      : result.reason,
                )}
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
