import type { Output, Prompt } from './api.ts';
import { ClockIcon } from './icons.tsx';
import type { Decide } from './outputs/ApprovalCard.tsx';
import { OutputView } from './outputs/OutputView.tsx';
import { TextOutput } from './outputs/TextOutput.tsx';

const STATE_LABEL: Record<string, string> = {
  running: 'Working…',
  waiting_for_approval: 'Waiting for your approval',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** One prompt: the user's input (or the trigger that started it), then every output in order. */
export function PromptView(props: {
  prompt: Prompt;
  streaming: Record<string, string>;
  fileUrl: (fileId: string, inline: boolean) => string;
  onDecide: Decide;
}) {
  const { prompt } = props;
  const trigger = (prompt.metadata as { trigger?: string } | undefined)?.trigger;
  // Text that is still streaming has no output yet: it shows after the outputs recorded so far.
  const streamingText = Object.values(props.streaming).join('');
  const usage = prompt.usage;
  return (
    <article className={`prompt prompt-${prompt.state}`} aria-busy={prompt.state === 'running'}>
      {prompt.input !== undefined ? (
        <div className="user-input">{prompt.input}</div>
      ) : (
        <div className="trigger-input">
          <ClockIcon /> Started by a trigger{trigger ? ` (${trigger})` : ''}
        </div>
      )}
      <div className="outputs">
        {prompt.output.map((output) => (
          <OutputView
            key={output.id}
            output={output as Output}
            fileUrl={props.fileUrl}
            onDecide={props.onDecide}
          />
        ))}
        {prompt.state === 'running' && streamingText && <TextOutput text={streamingText} streaming />}
      </div>
      <footer className="prompt-footer">
        <span className={`state state-${prompt.state}`}>{STATE_LABEL[prompt.state] ?? prompt.state}</span>
        {prompt.stopReason && <span className="stop-reason">{prompt.stopReason.message}</span>}
        {usage.modelCalls > 0 && (
          <span className="usage">
            {usage.inputTokens + usage.outputTokens} tokens · {usage.modelCalls} model call
            {usage.modelCalls === 1 ? '' : 's'}
          </span>
        )}
      </footer>
    </article>
  );
}
