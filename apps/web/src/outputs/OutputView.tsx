import type { Output } from '../api.ts';
import { GoalCheckpointView } from '../goals/GoalCheckpointView.tsx';
import { useLoopControl } from '../loop-control-context.ts';
import { CompactionMarker } from '../report/CompactionMarker.tsx';
import { AgentRunView } from './AgentRunView.tsx';
import { ApprovalCard, type Decide } from './ApprovalCard.tsx';
import { FileView } from './FileView.tsx';
import { GuardrailNote } from './GuardrailNote.tsx';
import { PauseCard, SteeringNote } from './PauseCard.tsx';
import { TextOutput } from './TextOutput.tsx';
import { ToolCard } from './ToolCard.tsx';
import { WidgetView } from './WidgetView.tsx';

/** One entry of the record, by its type. Types this UI does not know are shown as data, never dropped. */
export function OutputView({
  output,
  fileUrl,
  onDecide,
}: {
  output: Output;
  fileUrl: (fileId: string, inline: boolean) => string;
  onDecide: Decide;
}) {
  const control = useLoopControl();
  switch (output.type) {
    case 'text':
      return <TextOutput text={String(output.text)} refused={output.refusal === true} />;
    case 'tool':
      return (output.result as { type?: string } | undefined)?.type === 'pending' ? (
        <ApprovalCard output={output} onDecide={onDecide} />
      ) : (
        <ToolCard output={output} />
      );
    case 'widget':
      return <WidgetView output={output} />;
    case 'pause':
      return (
        <PauseCard
          output={output}
          onDecide={async (id, choice, budgets) => {
            if (!control) throw new Error('This pause can be decided in its conversation.');
            await control.resumePause(id, choice, budgets);
          }}
        />
      );
    case 'steering':
      return <SteeringNote output={output} />;
    case 'file':
      return <FileView output={output} url={(inline) => fileUrl(String(output.fileId), inline)} />;
    case 'reasoning':
      // A summary (OpenAI), the raw reasoning text (DeepSeek, Groq, gpt-oss, ...), or both.
      return output.summary || output.text ? (
        <details className="reasoning">
          <summary>Reasoning</summary>
          {output.summary ? <p>{String(output.summary)}</p> : null}
          {output.text ? <p className="reasoning-text">{String(output.text)}</p> : null}
        </details>
      ) : null;
    case 'compaction':
      return <CompactionMarker output={output} />;
    case 'guardrail':
      return <GuardrailNote output={output} />;
    case 'goal-checkpoint':
      return <GoalCheckpointView output={output} />;
    case 'agent-run':
      return <AgentRunView output={output} onDecide={onDecide} />;
    default:
      return <pre className="unknown-output">{JSON.stringify(output, null, 2)}</pre>;
  }
}
