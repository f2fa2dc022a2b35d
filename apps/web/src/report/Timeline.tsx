import { formatBytes, formatMs, formatTokens } from './format.ts';
import type { PromptReport } from './prompt-report.ts';

type Bar = {
  key: string;
  kind: 'model' | 'tool';
  label: string;
  detail: string;
  start: number;
  end: number;
  /** For a model call: when its first token came (the rest of the bar is the answer streaming). */
  firstToken?: number;
  tone: 'model' | 'success' | 'error' | 'pending' | 'not_run';
  title: string;
};

/** Every model call and tool call of the prompt as bars on one time axis, from the prompt's start. */
export function Timeline({ report }: { report: PromptReport }) {
  const t0 = Date.parse(report.startedAt);
  const bars: Bar[] = [];
  for (const [index, call] of report.modelCalls.entries()) {
    const start = Date.parse(call.startedAt) - t0;
    const end = Date.parse(call.endedAt) - t0;
    const tokens = `${formatTokens(call.inputTokens)} in${call.cachedInputTokens ? ` (${formatTokens(call.cachedInputTokens)} cached)` : ''} · ${formatTokens(call.outputTokens)} out`;
    bars.push({
      key: call.responseId,
      kind: 'model',
      label: `Model call ${index + 1}`,
      detail: `${formatMs(call.latencyMs)} · ${tokens}`,
      start,
      end,
      ...(call.timeToFirstTokenMs !== undefined && { firstToken: start + call.timeToFirstTokenMs }),
      tone: call.finishReason ? 'model' : 'error',
      title: [
        call.model ?? 'model',
        `latency ${formatMs(call.latencyMs)}`,
        call.timeToFirstTokenMs !== undefined
          ? `first token after ${formatMs(call.timeToFirstTokenMs)}`
          : undefined,
        tokens,
        call.finishReason ? `finished: ${call.finishReason}` : 'failed',
      ]
        .filter(Boolean)
        .join(' · '),
    });
  }
  const summary = report.compaction;
  if (summary?.startedAt && summary.endedAt) {
    bars.push({
      key: summary.outputId,
      kind: 'model',
      label: `Summary of ${summary.prompts} message${summary.prompts === 1 ? '' : 's'}`,
      detail: `${formatMs(summary.latencyMs ?? 0)} · ${formatTokens(summary.inputTokens ?? 0)} in · ${formatTokens(summary.outputTokens ?? 0)} out`,
      start: Date.parse(summary.startedAt) - t0,
      end: Date.parse(summary.endedAt) - t0,
      tone: 'model',
      title: `The older messages summarized, to make room (the context had ${formatTokens(summary.tokensBefore)} tokens)`,
    });
  }
  for (const call of report.toolCalls) {
    if (call.startedAt === undefined) continue;
    const start = Date.parse(call.startedAt) - t0;
    const end = call.endedAt ? Date.parse(call.endedAt) - t0 : start;
    const outcome = call.errorCode ?? call.outcome;
    bars.push({
      key: call.id,
      kind: 'tool',
      label: call.toolId,
      detail: `${call.latencyMs !== undefined ? formatMs(call.latencyMs) : '…'} · ${formatBytes(call.resultBytes)} · ${outcome}`,
      start,
      end,
      tone: call.outcome,
      title: `${call.toolId} · ${outcome} · result ${formatBytes(call.resultBytes)}`,
    });
  }
  bars.sort((a, b) => a.start - b.start || (a.kind === 'model' ? -1 : 1));
  const span = Math.max(report.totalMs ?? 0, ...bars.map((bar) => bar.end), 1);
  const at = (ms: number) => `${(Math.max(0, ms) / span) * 100}%`;

  if (bars.length === 0)
    return <p className="timeline-empty">No model or tool call was timed for this prompt.</p>;
  return (
    <ol className="timeline" aria-label="Timeline of the model and tool calls">
      {bars.map((bar) => (
        <li key={bar.key} className={`timeline-row timeline-${bar.kind}`}>
          <div className="timeline-label">
            <span className="timeline-name">{bar.label}</span>
            <span className="timeline-detail">{bar.detail}</span>
          </div>
          <div className="timeline-track">
            <div
              className={`timeline-bar tone-${bar.tone}`}
              style={{ left: at(bar.start), width: `max(3px, ${((bar.end - bar.start) / span) * 100}%)` }}
              title={bar.title}
            >
              {bar.firstToken !== undefined && bar.end > bar.start && (
                <div
                  className="timeline-wait"
                  style={{ width: `${((bar.firstToken - bar.start) / (bar.end - bar.start)) * 100}%` }}
                />
              )}
            </div>
          </div>
        </li>
      ))}
      <li className="timeline-row timeline-axis" aria-hidden="true">
        <span />
        <span className="timeline-ticks">
          <span>0</span>
          <span>{formatMs(span / 2)}</span>
          <span>{formatMs(span)}</span>
        </span>
      </li>
    </ol>
  );
}
