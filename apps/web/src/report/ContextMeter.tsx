import { formatTokens } from './format.ts';
import type { PromptReport } from './prompt-report.ts';

/**
 * How full the conversation's context is: the server's count (the provider's last reported tokens plus an
 * estimate of what came after, as the projection counts it) against the history budget, past which older
 * prompts are summarized.
 */
export function ContextMeter({ context }: { context: NonNullable<PromptReport['context']> }) {
  const { tokens, budget } = context;
  const fill = budget ? Math.min(1, tokens / budget) : undefined;
  const level = fill === undefined ? 'ok' : fill >= 0.9 ? 'full' : fill >= 0.7 ? 'high' : 'ok';
  const estimatedNote =
    context.estimated > 0
      ? `${formatTokens(context.reported)} counted by the model's provider, ${formatTokens(context.estimated)} estimated since`
      : 'as counted by the model provider';
  return (
    <div className={`context-meter context-${level}`}>
      <div className="context-label">
        <span>Context</span>
        <span className="context-figures">
          {formatTokens(tokens)}
          {budget ? ` of ${formatTokens(budget)} tokens (${Math.round((fill ?? 0) * 100)}%)` : ' tokens'}
        </span>
      </div>
      {budget ? (
        <div className="context-bar" aria-hidden="true">
          <div className="context-fill" style={{ width: `${(fill ?? 0) * 100}%` }} />
        </div>
      ) : null}
      <p className="context-note">
        {estimatedNote}.{budget ? ' Past the limit, older messages are summarized.' : ''}
      </p>
    </div>
  );
}
