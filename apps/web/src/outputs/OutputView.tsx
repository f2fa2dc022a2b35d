import type { Output } from '../api.ts';
import { ApprovalCard, type Decide } from './ApprovalCard.tsx';
import { FileView } from './FileView.tsx';
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
  switch (output.type) {
    case 'text':
      return <TextOutput text={String(output.text)} />;
    case 'tool':
      return (output.result as { type?: string } | undefined)?.type === 'pending' ? (
        <ApprovalCard output={output} onDecide={onDecide} />
      ) : (
        <ToolCard output={output} />
      );
    case 'widget':
      return <WidgetView output={output} />;
    case 'file':
      return <FileView output={output} url={(inline) => fileUrl(String(output.fileId), inline)} />;
    case 'reasoning':
      return output.summary ? (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <p>{String(output.summary)}</p>
        </details>
      ) : null;
    default:
      return <pre className="unknown-output">{JSON.stringify(output, null, 2)}</pre>;
  }
}
