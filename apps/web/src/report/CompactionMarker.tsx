import type { Output } from '../api.ts';
import { formatTokens } from './format.ts';
import './report.css';

/** Where the conversation's older messages were summarized for the model (or, failing that, left out). */
export function CompactionMarker({ output }: { output: Output }) {
  const prompts = Number(output.prompts ?? 0);
  const earlier = `${prompts} earlier message${prompts === 1 ? '' : 's'}`;
  const before = formatTokens(Number(output.tokensBefore ?? 0));
  if (typeof output.summary !== 'string')
    return (
      <div className="compaction-marker compaction-failed" role="note">
        <span className="compaction-rule" aria-hidden="true" />
        <span className="compaction-text">
          The context was full ({before} tokens): {earlier} {prompts === 1 ? 'is' : 'are'} no longer sent to
          the model. {String(output.error ?? '')}
        </span>
        <span className="compaction-rule" aria-hidden="true" />
      </div>
    );
  return (
    <details className="compaction-marker" role="note">
      <summary>
        <span className="compaction-rule" aria-hidden="true" />
        <span className="compaction-text">
          {earlier} summarized to save room ({before} tokens in the context)
        </span>
        <span className="compaction-rule" aria-hidden="true" />
      </summary>
      <p className="compaction-summary">{output.summary}</p>
    </details>
  );
}
