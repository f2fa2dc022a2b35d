import { useState } from 'react';
import type { Output } from '../api.ts';

type Result =
  | { type: 'success'; output: unknown }
  | { type: 'error'; error: unknown }
  | { type: 'pending'; reason: string };

export function toolStatus(output: Output): 'running' | 'queued' | 'success' | 'error' | 'pending' {
  const result = output.result as Result | undefined;
  if (result) return result.type;
  return output.startedAt ? 'running' : 'queued';
}

const duration = (output: Output) => {
  if (!output.startedAt || !output.endedAt) return undefined;
  const ms = Date.parse(output.endedAt as string) - Date.parse(output.startedAt as string);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** A tool call as a compact card: tool, arguments, status and duration; expands to the full input and result. */
export function ToolCard({ output }: { output: Output }) {
  const [open, setOpen] = useState(false);
  const status = toolStatus(output);
  const result = output.result as Result | undefined;
  const args = JSON.stringify(output.input ?? {});
  return (
    <div className={`tool-card status-${status}`}>
      <button type="button" className="tool-summary" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tool-name">{String(output.toolId)}</span>
        <span className="tool-args">{args.length > 80 ? `${args.slice(0, 80)}…` : args}</span>
        <span className={`badge badge-${status}`}>{status}</span>
        {duration(output) && <span className="tool-duration">{duration(output)}</span>}
      </button>
      {open && (
        <div className="tool-detail">
          <h4>Input</h4>
          <pre>{show(output.input ?? output.arguments)}</pre>
          {result && (
            <>
              <h4>
                {result.type === 'success'
                  ? 'Result'
                  : result.type === 'error'
                    ? 'Error'
                    : 'Waiting for approval'}
              </h4>
              <pre>
                {show(
                  result.type === 'success'
                    ? result.output
                    : result.type === 'error'
                      ? result.error
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
