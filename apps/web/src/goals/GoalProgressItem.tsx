import { labelOf, PROGRESS_LABEL, timeOf } from './goal-format.ts';
import type { ProgressEntry } from './goal-types.ts';

/** One entry of a goal's progress log, in the panel and in a checkpoint alike. */
export function GoalProgressItem({ entry }: { entry: ProgressEntry }) {
  return (
    <li className={`goal-log-${entry.kind}`}>
      <span className="goal-log-kind">{labelOf(PROGRESS_LABEL, entry.kind)}</span>
      <time dateTime={entry.at}>{timeOf(entry.at)}</time>
      <p>{entry.text}</p>
    </li>
  );
}
