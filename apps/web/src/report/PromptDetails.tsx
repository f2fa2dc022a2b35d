import { useEffect, useState } from 'react';
import { ContextMeter } from './ContextMeter.tsx';
import { formatCost, formatCount, formatMs, formatTokens } from './format.ts';
import { fetchReport, type PromptReport } from './prompt-report.ts';
import { Timeline } from './Timeline.tsx';
import './report.css';

/**
 * A prompt's run report: what it cost and where the time went (a timeline of its model and tool calls), why
 * it stopped, and how full the conversation's context is after it. Loaded when opened (mount it again, with a
 * new `key`, to load it again when the prompt changes).
 */
export function PromptDetails({ promptId }: { promptId: string }) {
  const [report, setReport] = useState<PromptReport>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    fetchReport(promptId, controller.signal).then(
      (loaded) => {
        setReport(loaded);
        setError(undefined);
      },
      (e: Error) => {
        if (e.name !== 'AbortError') setError(e.message);
      },
    );
    return () => controller.abort();
  }, [promptId]);

  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!report) return <p className="report-loading">Loading the report…</p>;
  const { totals } = report;
  const figures: [string, string][] = [
    ['Total', report.totalMs !== undefined ? formatMs(report.totalMs) : 'running'],
    [
      'Model',
      `${formatMs(totals.modelMs)} · ${formatCount(totals.modelCalls)} call${totals.modelCalls === 1 ? '' : 's'}`,
    ],
    [
      'Tools',
      `${formatMs(totals.toolMs)} · ${formatCount(totals.toolCalls)} call${totals.toolCalls === 1 ? '' : 's'}${totals.failedToolCalls ? ` (${totals.failedToolCalls} failed)` : ''}`,
    ],
    [
      'Tokens',
      `${formatTokens(totals.inputTokens)} in · ${formatTokens(totals.outputTokens)} out${totals.cachedInputTokens ? ` · ${formatTokens(totals.cachedInputTokens)} cached` : ''}`,
    ],
    ...(totals.cost !== undefined ? ([['Cost', formatCost(totals.cost)]] as [string, string][]) : []),
    ['Stopped', report.stopReason?.message ?? report.stop],
  ];
  return (
    <section className="prompt-details" aria-label="Run report">
      <dl className="report-figures">
        {figures.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Timeline report={report} />
      {report.context && <ContextMeter context={report.context} />}
    </section>
  );
}
