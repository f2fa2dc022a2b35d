import type { PendingApproval, PendingPause } from './api.ts';

type Step = PendingApproval['path'][number];

/** The conversation a waiting call's (or pause's) tree hangs from: the user's own, at the top of its path. */
export const rootConversationOf = (item: PendingApproval | PendingPause): string =>
  item.path?.[0]?.conversationId ?? item.conversationId;

/** What a step is called: the user's conversation by its title, an agent's prompt by the agent. */
function stepName(step: Step, index: number, titles: ReadonlyMap<string, string>): string {
  const title = step.title ?? titles.get(step.conversationId);
  if (index === 0) return title ?? step.conversationId;
  return step.agent ?? title ?? step.conversationId;
}

/** Between two steps: drawn, not read (the list says the order). */
const Separator = () => (
  <span className="approval-path-separator" aria-hidden="true">
    ›
  </span>
);

/**
 * Where a waiting call is: the user's conversation › each sub-agent › the call, each step a link to its
 * conversation (where that prompt's whole record is). E.g. "Trip planning › researcher › booker › work.do".
 */
export function ApprovalPath({
  path,
  last,
  titles,
}: {
  path: readonly Step[];
  /** What waits at the end: the call's tool id, or "paused". */
  last: string;
  titles: ReadonlyMap<string, string>;
}) {
  return (
    <nav className="approval-path" aria-label={`Where ${last} is`}>
      <ol>
        {path.map((step, i) => (
          <li key={step.promptId}>
            {i > 0 && <Separator />}
            <a
              href={`#${encodeURIComponent(step.conversationId)}`}
              title={step.title ?? step.conversationId}
              aria-label={i === 0 ? undefined : `${stepName(step, i, titles)} (sub-agent)`}
            >
              {stepName(step, i, titles)}
            </a>
          </li>
        ))}
        <li aria-current="true">
          <Separator />
          <code>{last}</code>
        </li>
      </ol>
    </nav>
  );
}
