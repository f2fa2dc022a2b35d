import { ChevronLeftIcon, ChevronRightIcon } from './icons.tsx';

/**
 * "‹ 2/3 ›" under a message that was edited or regenerated: which of the branches made at this turn shows,
 * and buttons to the previous and next one (each opens that branch's conversation).
 */
export function BranchSwitcher({
  index,
  count,
  onShow,
}: {
  /** The branch shown, from 0. */
  index: number;
  count: number;
  onShow: (index: number) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons (a fieldset is for form fields)
    <div className="branch-switcher" role="group" aria-label={`Branch ${index + 1} of ${count}`}>
      <button
        type="button"
        className="icon-action"
        aria-label="Previous branch"
        disabled={index === 0}
        onClick={() => onShow(index - 1)}
      >
        <ChevronLeftIcon />
      </button>
      <span className="branch-position" aria-hidden="true">
        {index + 1}/{count}
      </span>
      <button
        type="button"
        className="icon-action"
        aria-label="Next branch"
        disabled={index === count - 1}
        onClick={() => onShow(index + 1)}
      >
        <ChevronRightIcon />
      </button>
    </div>
  );
}
