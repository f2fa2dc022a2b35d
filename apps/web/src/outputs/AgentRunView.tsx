import { useContext, useEffect, useId, useState } from 'react';
import type { Output, Prompt } from '../api.ts';
import { MAX_INLINE_DEPTH, NestingContext, useChildRuns } from '../child-runs.ts';
import type { Decide } from './ApprovalCard.tsx';
import { OutputView } from './OutputView.tsx';
import { TextOutput } from './TextOutput.tsx';
import './agent-run.css';

const STATES: Record<string, string> = {
  running: 'working',
  waiting_for_approval: 'waiting for your decision',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

const isLive = (state: string) => state === 'running' || state === 'waiting_for_approval';

/**
 * A sub-agent a tool call ran (the agents plugin's `agent-run` output): which agent, its task, how far it
 * got, and its own conversation, where its whole record is. Inside a conversation's record, the child's run
 * shows inline as well, live from the parent's stream (which carries the child's events): open while it
 * runs or waits, collapsed once it ended (a toggle either way), its outputs shown as the parent's are (a
 * grandchild's run nests in it, up to MAX_INLINE_DEPTH), and its calls waiting for approval decided in place.
 */
export function AgentRunView({ output, onDecide }: { output: Output; onDecide?: Decide }) {
  const agent = String(output.agent);
  const state = String(output.state);
  const label = Object.hasOwn(STATES, state) ? STATES[state] : state;
  const conversationId = String(output.conversationId);
  const promptId = String(output.promptId);
  const children = useChildRuns();
  const nesting = useContext(NestingContext);
  // Inline only inside a live record, not too deep, and never inside itself.
  const inline =
    children !== undefined &&
    onDecide !== undefined &&
    nesting.length < MAX_INLINE_DEPTH &&
    !nesting.includes(promptId);
  const child = inline ? children.runs.prompts[promptId] : undefined;
  // What the child's record says, once read; until then, the card's state.
  const childState = child?.state ?? state;
  // Open while it runs or waits, collapsed once ended; the user's choice wins once made.
  const [chosen, setChosen] = useState<boolean>();
  const open = chosen ?? isLive(childState);
  const [error, setError] = useState<string>();
  const bodyId = useId();
  const load = children?.load;
  // Read the child when first shown open, and again when the parent's card says it changed (a stream that
  // joined after the child started has not seen all of its events).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` changes are what to read again on
  useEffect(() => {
    if (!inline || !open || !load) return;
    load(promptId).then(
      () => setError(undefined),
      (e: unknown) => setError((e as Error).message),
    );
  }, [inline, open, load, promptId, state]);
  return (
    <section className="agent-run" data-state={childState} aria-label={`Sub-agent ${agent}`}>
      <div className="agent-run-head">
        {inline ? (
          <button
            type="button"
            className="agent-run-toggle"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setChosen(!open)}
          >
            <span className="agent-run-chevron" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>
            <span className="agent-run-name">Agent {agent}</span>
          </button>
        ) : (
          <span className="agent-run-name">↳ Agent {agent}</span>
        )}
        <span className="agent-run-state">{label}</span>
        <a className="agent-run-open" href={`#${encodeURIComponent(conversationId)}`}>
          Open its conversation
        </a>
      </div>
      <details className="agent-run-task">
        <summary>Task</summary>
        <p>{String(output.task)}</p>
      </details>
      {output.summary && !(inline && open) ? (
        <p className="agent-run-summary">{String(output.summary)}</p>
      ) : null}
      {state === 'waiting_for_approval' && !(inline && open) ? (
        <p className="agent-run-waiting">
          {inline
            ? 'It waits for you: open its run to decide its call here (or in its conversation, or in the Inbox), and this prompt goes on.'
            : 'It waits for you: decide its call in its conversation or in the Inbox, and this prompt goes on.'}
        </p>
      ) : null}
      {inline && open ? (
        <section className="agent-run-body" id={bodyId} aria-label={`Run of agent ${agent}`}>
          {child ? (
            <NestingContext value={[...nesting, promptId]}>
              <ChildRun
                prompt={child}
                streaming={children.runs.streaming[promptId] ?? {}}
                fileUrl={(fileId, inlineFile) => children.fileUrl(child.conversationId, fileId, inlineFile)}
                onDecide={onDecide}
              />
            </NestingContext>
          ) : error ? (
            <p className="error-text">Its run could not be read: {error}</p>
          ) : (
            <p className="agent-run-loading">Reading its run…</p>
          )}
        </section>
      ) : null}
    </section>
  );
}

/** The child prompt's outputs, as the parent's record shows its own, and the text it is streaming. */
function ChildRun({
  prompt,
  streaming,
  fileUrl,
  onDecide,
}: {
  prompt: Prompt;
  streaming: Record<string, string>;
  fileUrl: (fileId: string, inline: boolean) => string;
  onDecide: Decide;
}) {
  const outputs = prompt.output as Output[];
  const streamingText = prompt.state === 'running' ? Object.values(streaming).join('') : '';
  return (
    <div className="outputs agent-run-outputs">
      {outputs.map((o) => (
        <OutputView key={o.id} output={o} fileUrl={fileUrl} onDecide={onDecide} />
      ))}
      {streamingText && <TextOutput text={streamingText} streaming />}
      {outputs.length === 0 && !streamingText ? <p className="agent-run-loading">Starting…</p> : null}
      {prompt.stopReason && prompt.stopReason.code !== 'cancelled' ? (
        <p className="stop-reason">{prompt.stopReason.message}</p>
      ) : null}
    </div>
  );
}
