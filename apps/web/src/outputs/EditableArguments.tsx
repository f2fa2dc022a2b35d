import { useState } from 'react';
import type { Output } from '../api.ts';
import { useLoopControl } from '../loop-control-context.ts';
import { ArgumentsEditor, type EditedArguments } from './ArgumentsEditor.tsx';
import { showValue } from './ToolCard.tsx';
import './loop-control.css';

/**
 * The arguments a pending call would run with, and an "Edit arguments" button that turns them into a form
 * (from the tool's JSON Schema, when its arguments are a flat object) or a JSON field. `onEdit` gets the
 * edited arguments (or why they are not JSON), or `undefined` when the user went back to the model's.
 */
export function EditableArguments({
  output,
  disabled,
  onEdit,
}: {
  output: Output;
  disabled?: boolean;
  onEdit: (edited: EditedArguments | undefined) => void;
}) {
  const control = useLoopControl();
  const [editing, setEditing] = useState<{ schema: unknown } | undefined>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const startEditing = async () => {
    setLoading(true);
    setError(undefined);
    try {
      // Without the schema (a tool made per round, or a failed request) the arguments are edited as JSON.
      const schema = await control?.toolSchema(output.id).catch(() => undefined);
      setEditing({ schema });
      onEdit({ value: output.input ?? {} });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setLoading(false);
    }
  };
  return (
    <section className="approval-arguments" aria-label="Arguments">
      <div className="approval-arguments-head">
        <code className="tool-name">{String(output.toolId)}</code>
        {control && (
          <button
            type="button"
            className="link-button"
            disabled={disabled || loading}
            aria-pressed={Boolean(editing)}
            onClick={() => {
              if (!editing) return void startEditing();
              setEditing(undefined);
              onEdit(undefined);
            }}
          >
            {editing ? "Use the model's arguments" : 'Edit arguments'}
          </button>
        )}
      </div>
      {editing ? (
        <ArgumentsEditor
          schema={editing.schema}
          initial={output.input}
          disabled={disabled}
          onChange={onEdit}
        />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a long value scrolls; the keyboard must reach it
        <pre tabIndex={0} className="json-block approval-input">
          {showValue(output.input ?? {})}
        </pre>
      )}
      {error && <p className="error-text">{error}</p>}
    </section>
  );
}
