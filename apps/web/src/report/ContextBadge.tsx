import { useEffect, useState } from 'react';
import { formatTokens } from './format.ts';
import { fetchReport, type PromptReport } from './prompt-report.ts';
import './report.css';

/**
 * How full the context window is after the conversation's latest prompt, small, in its footer: the same
 * count as the run report's (mount again with a new `key` when the prompt changes).
 */
export function ContextBadge({ promptId }: { promptId: string }) {
  const [context, setContext] = useState<PromptReport['context']>();
  useEffect(() => {
    const controller = new AbortController();
    // A moment after the prompt settles: a prompt that ends and is followed at once is not asked twice.
    const timer = setTimeout(() => {
      fetchReport(promptId, controller.signal).then(
        (report) => setContext(report.context),
        () => {}, // the badge is a hint: without the report it stays away
      );
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [promptId]);
  if (!context?.budget) return null;
  const fill = Math.min(1, context.tokens / context.budget);
  const level = fill >= 0.9 ? 'full' : fill >= 0.7 ? 'high' : 'ok';
  const percent = Math.round((context.tokens / context.budget) * 100);
  return (
    <span
      className={`context-badge context-${level}`}
      title={`Context: ${formatTokens(context.tokens)} of ${formatTokens(context.budget)} tokens. Past the limit, older messages are summarized.`}
    >
      <span className="context-badge-bar" aria-hidden="true">
        <span className="context-fill" style={{ width: `${fill * 100}%` }} />
      </span>
      <span>Context {percent}%</span>
    </span>
  );
}
