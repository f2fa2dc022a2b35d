import { useId, useState } from 'react';

/** The part of JSON Schema the form understands: an object of scalar fields. */
type FieldSchema = {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  title?: string;
};
export type JsonSchema = {
  type?: string;
  properties?: Record<string, FieldSchema>;
  required?: string[];
};

const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);
const fieldType = (field: FieldSchema) => (Array.isArray(field.type) ? undefined : field.type);

/**
 * Whether a form can edit these arguments: an object whose every property is a string, number, integer or
 * boolean (or a list of choices). Anything nested (arrays, objects, unions) is edited as JSON instead.
 */
export function isFlatObjectSchema(
  schema: unknown,
): schema is JsonSchema & { properties: Record<string, FieldSchema> } {
  const s = schema as JsonSchema | undefined;
  if (s?.type !== 'object' || !s.properties) return false;
  return Object.values(s.properties).every(
    (field) => Array.isArray(field.enum) || SCALARS.has(fieldType(field) ?? ''),
  );
}

/** The edited arguments, or why they are not valid JSON (the Approve button waits for a fix). */
export type EditedArguments = { value: unknown } | { error: string };

/**
 * Edits a tool call's arguments before it is approved: a form built from the tool's JSON Schema when its
 * arguments are a flat object, else the JSON itself. The server validates the result against the schema
 * either way; what it refuses is shown by the approval card and the call keeps waiting.
 */
export function ArgumentsEditor({
  schema,
  initial,
  disabled,
  onChange,
}: {
  schema: unknown;
  initial: unknown;
  disabled?: boolean;
  onChange: (edited: EditedArguments) => void;
}) {
  return isFlatObjectSchema(schema) ? (
    <ArgumentsForm schema={schema} initial={initial} disabled={disabled} onChange={onChange} />
  ) : (
    <ArgumentsJson initial={initial} disabled={disabled} onChange={onChange} />
  );
}

function ArgumentsForm({
  schema,
  initial,
  disabled,
  onChange,
}: {
  schema: JsonSchema & { properties: Record<string, FieldSchema> };
  initial: unknown;
  disabled?: boolean;
  onChange: (edited: EditedArguments) => void;
}) {
  const [values, setValues] = useState<Record<string, unknown>>(
    typeof initial === 'object' && initial !== null ? { ...(initial as Record<string, unknown>) } : {},
  );
  const base = useId();
  const set = (name: string, value: unknown) => {
    // Spread and fromEntries define own properties: a field named `__proto__` stays a field.
    const next = { ...values, ...Object.fromEntries([[name, value]]) };
    if (value === undefined) delete next[name];
    setValues(next);
    onChange({ value: next });
  };
  return (
    <div className="arguments-form">
      {Object.entries(schema.properties).map(([name, field]) => {
        const id = `${base}-${name}`;
        const label = (
          <label htmlFor={id}>
            {field.title ?? name}
            {schema.required?.includes(name) ? '' : ' (optional)'}
          </label>
        );
        const hint = field.description && <small className="field-hint">{field.description}</small>;
        const value = values[name];
        if (Array.isArray(field.enum)) {
          return (
            <div className="argument-field" key={name}>
              {label}
              <select
                id={id}
                disabled={disabled}
                value={JSON.stringify(value ?? null)}
                onChange={(e) => set(name, JSON.parse(e.target.value))}
              >
                {field.enum.map((choice) => (
                  <option key={JSON.stringify(choice)} value={JSON.stringify(choice)}>
                    {String(choice)}
                  </option>
                ))}
              </select>
              {hint}
            </div>
          );
        }
        const type = fieldType(field);
        if (type === 'boolean') {
          return (
            <div className="argument-field argument-checkbox" key={name}>
              <input
                id={id}
                type="checkbox"
                disabled={disabled}
                checked={value === true}
                onChange={(e) => set(name, e.target.checked)}
              />
              {label}
              {hint}
            </div>
          );
        }
        const numeric = type === 'number' || type === 'integer';
        return (
          <div className="argument-field" key={name}>
            {label}
            <input
              id={id}
              type={numeric ? 'number' : 'text'}
              step={type === 'integer' ? 1 : 'any'}
              disabled={disabled}
              value={value === undefined || value === null ? '' : String(value)}
              onChange={(e) => {
                const text = e.target.value;
                // An emptied field leaves the argument out: the schema says whether it may be.
                if (text === '') set(name, undefined);
                else set(name, numeric ? Number(text) : text);
              }}
            />
            {hint}
          </div>
        );
      })}
    </div>
  );
}

function ArgumentsJson({
  initial,
  disabled,
  onChange,
}: {
  initial: unknown;
  disabled?: boolean;
  onChange: (edited: EditedArguments) => void;
}) {
  const [text, setText] = useState(() => JSON.stringify(initial ?? {}, null, 2));
  const [error, setError] = useState<string>();
  const id = useId();
  return (
    <div className="arguments-json">
      <label htmlFor={id}>Arguments (JSON)</label>
      <textarea
        id={id}
        className="json-block"
        spellCheck={false}
        rows={Math.min(16, text.split('\n').length + 1)}
        disabled={disabled}
        value={text}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const value: unknown = JSON.parse(e.target.value);
            setError(undefined);
            onChange({ value });
          } catch (parseError) {
            const message = `Not valid JSON: ${(parseError as Error).message}`;
            setError(message);
            onChange({ error: message });
          }
        }}
      />
      {error && <p className="error-text">{error}</p>}
    </div>
  );
}
