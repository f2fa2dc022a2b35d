import type { Output } from '../api.ts';
import './agent-run.css';

const STATES: Record<string, string> = {
  running: 'working',
  waiting_for_approval: 'waiting for your decision',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * A sub-agent a tool call ran (the agents plugin's `agent-run` output): which agent, its task, how far it
 * got, and its own conversation, where its whole record is and where its approvals can be decided (they
 * are in the Inbox too). Updated in place as the parent's record changes.
 */
export function AgentRunView({ output }: { output: Output }) {
  const agent = String(output.agent);
  const state = String(output.state);
  const label = Object.hasOwn(STATES, state) ? STATES[state] : state;
  const conversationId = String(output.conversationId);
  return (
    <section className="agent-run" data-state={state} aria-label={`Sub-agent ${agent}`}>
      <div className="agent-run-head">
        <span className="agent-run-name">↳ Agent {agent}</span>
        <span className="agent-run-state">{label}</span>
        <a className="agent-run-open" href={`#${encodeURIComponent(conversationId)}`}>
          Open its conversation
        </a>
      </div>
      <details className="agent-run-task">
        <summary>Task</summary>
        <p>{String(output.task)}</p>
      </details>
      {output.summary ? <p className="agent-run-summary">{String(output.summary)}</p> : null}
      {state === 'waiting_for_approval' ? (
        <p className="agent-run-waiting">
          It waits for you: decide its call in its conversation or in the Inbox, and this prompt goes on.
        </p>
      ) : null}
    </section>
  );
}
