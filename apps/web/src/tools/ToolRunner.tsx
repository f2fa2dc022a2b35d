import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Api, OfferedTool } from '../api.ts';
import { CloseIcon } from '../icons.tsx';
import { ArgumentsEditor, type EditedArguments } from '../outputs/ArgumentsEditor.tsx';
import { initialArguments, takesArguments } from './initial-arguments.ts';
import './tool-runner.css';

/** A run the dialog remembers for the next time it opens: the tool, and the arguments it ran with. */
export type ToolRun = { toolId: string; input: Record<string, unknown> };

const APPROVAL_LABEL: Record<OfferedTool['approval'], string | undefined> = {
  always: 'asks for approval',
  depends: 'may ask for approval',
  never: undefined,
};

/**
 * The tool runner: the tools the conversation offers the model, and a form for the arguments of one (built
 * from its JSON Schema, as the approval card edits a call's arguments). Run makes it a prompt of the
 * conversation whose first call is the user's: it waits for approval when the tool asks, and its outputs show
 * in the conversation as the model's calls do. For plugin authors, without a model that calls their tools.
 */
export function ToolRunner({
  api,
  conversationId,
  last,
  onRan,
  onClose,
}: {
  api: Api;
  conversationId: string;
  /** The run before, chosen again when the dialog opens. */
  last?: ToolRun;
  onRan: (run: ToolRun) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [tools, setTools] = useState<OfferedTool[]>();
  const [loadError, setLoadError] = useState<string>();
  const [selected, setSelected] = useState(last?.toolId);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal?.();
    return () => el?.close?.();
  }, []);
  useEffect(() => {
    api.tools(conversationId).then(
      (list) => {
        setTools(list);
        setSelected((id) => (list.some((tool) => tool.id === id) ? id : list[0]?.id));
      },
      (e: Error) => setLoadError(e.message),
    );
  }, [api, conversationId]);
  const tool = tools?.find((t) => t.id === selected);
  return (
    <dialog
      ref={dialog}
      className="tool-runner"
      aria-labelledby="tool-runner-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="tool-runner-head">
        <h2 id="tool-runner-title">Run a tool</h2>
        <button type="button" className="icon" aria-label="Close" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <p className="tool-runner-intro">
        Calls a tool in this conversation as the model would: approval, outputs and history as usual, and no
        model call after it.
      </p>
      {loadError && (
        <p role="alert" className="error-text tool-runner-intro">
          {loadError}
        </p>
      )}
      <div className="tool-runner-body">
        <ToolList tools={tools} selected={selected} onSelect={setSelected} />
        {tool ? (
          <ToolForm
            key={tool.id}
            tool={tool}
            initial={last?.toolId === tool.id ? last.input : undefined}
            onRun={async (input) => {
              await api.runTool(conversationId, tool.id, input);
              onRan({ toolId: tool.id, input });
            }}
            onCancel={onClose}
          />
        ) : (
          <p className="tool-form muted">{tools?.length === 0 ? 'This conversation offers no tools.' : ''}</p>
        )}
      </div>
    </dialog>
  );
}

/** The tools, filtered by what the user types (in their ids, plugins and descriptions). */
function ToolList({
  tools,
  selected,
  onSelect,
}: {
  tools: OfferedTool[] | undefined;
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return (tools ?? []).filter((tool) => {
      const text = `${tool.id} ${tool.plugin} ${tool.description}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
  }, [tools, filter]);
  return (
    <div className="tool-list">
      <input
        type="search"
        // biome-ignore lint/a11y/noAutofocus: the dialog opens to choose a tool: the filter is where to start
        autoFocus
        aria-label="Filter the tools"
        placeholder="Filter tools…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {!tools && <p className="muted">Loading…</p>}
      <ul aria-label="Tools">
        {shown.map((tool) => (
          <li key={tool.id}>
            <button
              type="button"
              className="tool-choice"
              aria-pressed={tool.id === selected}
              onClick={() => onSelect(tool.id)}
            >
              <code>{tool.id}</code>
              <span className="tool-choice-plugin">{tool.plugin}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One tool: what it does, its arguments' form, and Run (a refusal of the server is shown, the form kept). */
function ToolForm({
  tool,
  initial,
  onRun,
  onCancel,
}: {
  tool: OfferedTool;
  initial: Record<string, unknown> | undefined;
  onRun: (input: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
}) {
  const start = useMemo(() => initial ?? initialArguments(tool.inputSchema), [initial, tool.inputSchema]);
  const [edited, setEdited] = useState<EditedArguments>({ value: start });
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string>();
  const headingId = useId();
  const approval = APPROVAL_LABEL[tool.approval];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!('value' in edited)) return;
    setRunning(true);
    setError(undefined);
    try {
      await onRun((edited.value ?? {}) as Record<string, unknown>);
    } catch (e) {
      setError((e as Error).message);
      setRunning(false);
    }
  };
  return (
    <form className="tool-form" aria-labelledby={headingId} onSubmit={(e) => void submit(e)}>
      <div className="tool-form-head">
        <h3 id={headingId}>
          <code className="tool-name">{tool.id}</code>
        </h3>
        <span className="badge">{tool.plugin}</span>
        {approval && <span className="badge badge-pending">{approval}</span>}
        {tool.readOnly && <span className="badge">read-only</span>}
      </div>
      <p className="tool-description">{tool.description}</p>
      {takesArguments(tool.inputSchema) ? (
        <ArgumentsEditor
          schema={tool.inputSchema}
          initial={start}
          disabled={running}
          onChange={(next) => {
            setEdited(next);
            setError(undefined); // the server's refusal was of the arguments before
          }}
        />
      ) : (
        <p className="muted">This tool takes no arguments.</p>
      )}
      {error && (
        <p role="alert" className="error-text tool-run-error">
          {error}
        </p>
      )}
      <div className="tool-form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={running || 'error' in edited}>
          Run
        </button>
      </div>
    </form>
  );
}
