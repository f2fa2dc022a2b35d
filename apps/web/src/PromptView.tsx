import { useState } from 'react';
import type { Output, Prompt } from './api.ts';
import { BranchSwitcher } from './BranchSwitcher.tsx';
import { GoalTurnInput } from './goals/GoalTurnInput.tsx';
import { ClockIcon, PencilIcon, RetryIcon, WrenchIcon } from './icons.tsx';
import type { Decide } from './outputs/ApprovalCard.tsx';
import { Attachments, uploadsAsFiles } from './outputs/Attachments.tsx';
import { CopyButton } from './outputs/CopyButton.tsx';
import { OutputView } from './outputs/OutputView.tsx';
import { TextOutput } from './outputs/TextOutput.tsx';
import { ContextBadge } from './report/ContextBadge.tsx';
import { PromptDetails } from './report/PromptDetails.tsx';
import type { BranchSwitch } from './use-branches.ts';
import './outputs/outputs.css';

const STATE_LABEL: Record<string, string> = {
  running: 'Working…',
  waiting_for_approval: 'Waiting for your approval',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
};

/** A waiting prompt waits on an approval or on a pause (a repeated loop of calls, a plugin's check). */
const stateLabel = (prompt: Prompt) =>
  prompt.state === 'waiting_for_approval' &&
  prompt.output.some((o) => o.type === 'pause' && o.decision === undefined)
    ? 'Paused: waiting for your decision'
    : (STATE_LABEL[prompt.state] ?? prompt.state);

/** Sends a message again (the server has no edit or regenerate route: it is a new prompt at the end). */
export type Resend = (input: string, files: File[]) => Promise<void>;

const isUpload = (output: Output) => output.type === 'file' && output.origin === 'upload';

/** The answer's text as the user reads it: its text outputs, in order. */
const answerText = (outputs: Output[], streaming: string) =>
  [...outputs.filter((o) => o.type === 'text').map((o) => String(o.text)), streaming]
    .filter(Boolean)
    .join('\n\n');

/**
 * One prompt: the user's message (text and attachments, or the trigger that started it), every output in
 * order, and what can be done with it: copy the message or the answer, edit and send again, retry a failed or
 * stopped prompt, regenerate the last answer.
 */
export function PromptView(props: {
  prompt: Prompt;
  streaming: Record<string, string>;
  fileUrl: (fileId: string, inline: boolean) => string;
  onDecide: Decide;
  /** Sending again (a new branch at this turn); left out, the prompt offers no retry, regenerate or edit. */
  onResend?: Resend;
  /** The conversation is busy (a prompt runs or waits): nothing can be sent now. */
  busy?: boolean;
  /** The conversation's last prompt: only its answer can be regenerated. */
  last?: boolean;
  /** The branches made at this turn ("‹ 2/3 ›"), when it has more than one. */
  branches?: BranchSwitch | undefined;
}) {
  const { prompt, fileUrl } = props;
  const metadata = prompt.metadata as
    | { trigger?: string; triggerName?: string; toolRun?: boolean; goal?: { id?: string; turn?: number } }
    | undefined;
  const outputs = prompt.output as Output[];
  const uploads = outputs.filter(isUpload);
  const rest = outputs.filter((o) => !isUpload(o));
  // Text that is still streaming has no output yet: it shows after the outputs recorded so far.
  const streamingText = Object.values(props.streaming).join('');
  const usage = prompt.usage;
  const [editing, setEditing] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();
  const [details, setDetails] = useState(false);
  const ended = prompt.state !== 'running' && prompt.state !== 'waiting_for_approval';
  const canResend =
    Boolean(props.onResend) &&
    !props.busy &&
    !sending &&
    !metadata?.trigger &&
    !metadata?.toolRun &&
    !metadata?.goal;
  // A tool run asks no model: its skipped model call is not worth a line.
  const showUsage = usage.modelCalls > 0 && !(metadata?.toolRun && usage.totalTokens === 0);

  const resend = async (input: string) => {
    if (!props.onResend) return;
    setSending(true);
    setError(undefined);
    try {
      await props.onResend(input, await uploadsAsFiles(uploads, fileUrl));
      setEditing(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  };

  const answer = answerText(rest, prompt.state === 'running' ? streamingText : '');
  return (
    <article
      className={`prompt prompt-${prompt.state}`}
      data-prompt-id={prompt.id}
      aria-busy={prompt.state === 'running'}
    >
      {metadata?.trigger ? (
        <div className="trigger-input">
          <ClockIcon />{' '}
          {metadata.triggerName ? `Started by “${metadata.triggerName}”` : 'Started by a trigger'}
        </div>
      ) : metadata?.goal ? (
        <GoalTurnInput turn={metadata.goal.turn} input={prompt.input} />
      ) : metadata?.toolRun ? (
        <ToolRunInput prompt={prompt} />
      ) : editing ? (
        <EditMessage
          initial={prompt.input ?? ''}
          attachments={uploads.length}
          sending={sending}
          onSend={(text) => void resend(text)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="user-message">
          <div className="user-input">
            {prompt.input && <span className="user-text">{prompt.input}</span>}
            {uploads.length > 0 && <Attachments files={uploads} fileUrl={fileUrl} />}
          </div>
          <div className="message-actions user-actions">
            {prompt.input && <CopyButton label="Copy message" text={() => prompt.input ?? ''} />}
            {canResend && (
              <button type="button" className="icon-action" onClick={() => setEditing(true)}>
                <PencilIcon size={16} />
                <span>Edit</span>
              </button>
            )}
            {props.branches && <BranchSwitcher {...props.branches} />}
          </div>
        </div>
      )}
      <div className="outputs">
        {rest.map((output) => (
          <OutputView key={output.id} output={output} fileUrl={fileUrl} onDecide={props.onDecide} />
        ))}
        {prompt.state === 'running' && streamingText && <TextOutput text={streamingText} streaming />}
      </div>
      <footer className="prompt-footer">
        <span className={`state state-${prompt.state}`}>{stateLabel(prompt)}</span>
        {/* "Stopped" says it all for a stop the user asked for; other reasons are told. */}
        {prompt.stopReason && prompt.stopReason.code !== 'cancelled' && (
          <span className="stop-reason">{prompt.stopReason.message}</span>
        )}
        {showUsage && (
          <span className="usage">
            {usage.inputTokens + usage.outputTokens} tokens · {usage.modelCalls} model call
            {usage.modelCalls === 1 ? '' : 's'}
          </span>
        )}
        {/* The latest prompt says how full the context is; its report is one click away on every prompt. */}
        {ended && props.last && usage.modelCalls > 0 && (
          <ContextBadge key={prompt.updatedAt} promptId={prompt.id} />
        )}
        <span className="message-actions answer-actions">
          {answer && <CopyButton label="Copy answer" text={() => answer} />}
          {usage.modelCalls > 0 && (
            <button
              type="button"
              className="icon-action details-toggle"
              aria-expanded={details}
              onClick={() => setDetails((open) => !open)}
            >
              <span>Details</span>
            </button>
          )}
          {ended && canResend && (prompt.state === 'failed' || prompt.state === 'cancelled') && (
            <button type="button" className="icon-action" onClick={() => void resend(prompt.input ?? '')}>
              <RetryIcon />
              <span>Retry</span>
            </button>
          )}
          {ended && canResend && prompt.state === 'completed' && props.last && (
            <button type="button" className="icon-action" onClick={() => void resend(prompt.input ?? '')}>
              <RetryIcon />
              <span>Regenerate</span>
            </button>
          )}
        </span>
      </footer>
      {details && <PromptDetails key={prompt.updatedAt} promptId={prompt.id} />}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </article>
  );
}

/** Where a tool run's message would be: the tool the user ran (its call, and what it did, follow). */
function ToolRunInput({ prompt }: { prompt: Prompt }) {
  const call = prompt.output.find((o) => o.type === 'tool');
  return (
    <div className="tool-run-input">
      <WrenchIcon size={14} /> You ran <code>{call ? String(call.toolId) : 'a tool'}</code>
    </div>
  );
}

/** The user's message in a text field, to change and send again (its attachments go with it). */
function EditMessage(props: {
  initial: string;
  attachments: number;
  sending: boolean;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(props.initial);
  const empty = !text.trim() && props.attachments === 0;
  const send = () => {
    if (!empty && !props.sending) props.onSend(text.trim());
  };
  return (
    <form
      className="edit-message"
      aria-label="Edit the message"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Edited text"
        value={text}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancel();
          // As in the message box: Enter sends, Shift+Enter is a new line.
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this text
        autoFocus
      />
      {props.attachments > 0 && (
        <p className="edit-note">
          {props.attachments === 1 ? 'The attachment is' : `The ${props.attachments} attachments are`} sent
          again.
        </p>
      )}
      <div className="edit-actions">
        <button type="button" onClick={props.onCancel} disabled={props.sending}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={empty || props.sending}>
          Save and send
        </button>
      </div>
    </form>
  );
}
