import type { SendMode } from './Composer.tsx';

/** While the assistant works: whether a message steers the running answer or waits as a follow-up. */
export function SendModePicker({ mode, onChange }: { mode: SendMode; onChange: (mode: SendMode) => void }) {
  return (
    <div className="send-mode" role="radiogroup" aria-label="While it works, send as">
      <span className="send-mode-label" aria-hidden="true">
        While it works, send as
      </span>
      <label>
        <input
          type="radio"
          name="send-mode"
          value="steer"
          checked={mode === 'steer'}
          onChange={() => onChange('steer')}
        />
        Steer: it reads this at its next step
      </label>
      <label>
        <input
          type="radio"
          name="send-mode"
          value="queue"
          checked={mode === 'queue'}
          onChange={() => onChange('queue')}
        />
        Queue: it runs when this answer ends
      </label>
    </div>
  );
}
