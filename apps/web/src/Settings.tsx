import { useId, useState } from 'react';
import type { Api, ModelClass } from './api.ts';
import { InstructionsSettings } from './InstructionsSettings.tsx';
import { readModelClass, saveModelClass } from './model-class.ts';
import { applyTheme, readTheme, type Theme } from './theme.ts';

const MODEL_CLASSES: { value: ModelClass; label: string; hint: string }[] = [
  { value: 'normal', label: 'Normal', hint: 'Fast answers for everyday questions' },
  { value: 'high', label: 'High', hint: 'More thorough: for harder tasks, slower' },
];

const THEMES: { value: Theme; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follows your device’s light or dark setting' },
  { value: 'light', label: 'Light', hint: '' },
  { value: 'dark', label: 'Dark', hint: '' },
];

/**
 * The user's settings (the top bar is their heading): appearance and the model class (kept in this browser),
 * standing instructions (kept by the server), signing out.
 */
export function Settings({
  api,
  model,
  userId,
  onSignOut,
}: {
  /** With an API, the server-kept settings (instructions) are shown too. */
  api?: Api;
  model: { label: string; demo: boolean };
  userId: string;
  onSignOut?: () => void;
}) {
  const [theme, setTheme] = useState(readTheme);
  const [modelClass, setModelClass] = useState(readModelClass);
  const id = useId();
  return (
    <div className="settings">
      <section aria-labelledby={`${id}-appearance`}>
        <h2 id={`${id}-appearance`}>Appearance</h2>
        <fieldset className="choice">
          <legend>Theme</legend>
          {THEMES.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name="theme"
                value={option.value}
                checked={theme === option.value}
                onChange={() => {
                  setTheme(option.value);
                  applyTheme(option.value);
                }}
              />
              {option.label}
              {option.hint && <span className="muted">{option.hint}</span>}
            </label>
          ))}
        </fieldset>
      </section>
      <section aria-labelledby={`${id}-model`}>
        <h2 id={`${id}-model`}>Model</h2>
        <p>
          Answers come from <strong>{model.label}</strong>
          {model.demo && ' (the offline demo model)'}. The server’s configuration chooses it; you choose how
          hard it works on your messages.
        </p>
        <fieldset className="choice">
          <legend>Model class for new messages</legend>
          {MODEL_CLASSES.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name="model-class"
                value={option.value}
                checked={modelClass === option.value}
                onChange={() => {
                  setModelClass(option.value);
                  saveModelClass(option.value);
                }}
              />
              {option.label}
              <span className="muted">{option.hint}</span>
            </label>
          ))}
        </fieldset>
      </section>
      {api && <InstructionsSettings api={api} />}
      <section aria-labelledby={`${id}-account`}>
        <h2 id={`${id}-account`}>Account</h2>
        <p>
          Signed in as <strong>{userId}</strong>.
        </p>
        {onSignOut && (
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </section>
    </div>
  );
}
