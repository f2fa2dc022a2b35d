import type { SendMode } from './Composer.tsx';

const MODES: readonly [SendMode, string][] = [
  ['steer', 'Steer: it reads this at its next step'],
  ['queue', 'Queue: it runs when this answer ends'],
];

/** While the assistant works: whether a message steers the running answer or waits as a follow-up. */
export function SendModePicker({ mode, onChange }: { mode: SendMode; onChange: (mode: SendMode) => void }) {
  return (
    <div className="send-mode" role="radiogroup" aria-label="While it works, send as">
      <span className="send-mode-label" aria-hidden="true">
        While it works, send as
      </span>
      {MODES.map(([value, label]) => (
        <label key={value}>
          <input
            type="radio"
            name="send-mode"
            value={value}
            checked={mode === value}
            onChange={() => onChange(value)}
          />
          {label}
        </label>
      ))}
    </div>
  );
}
