import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * The model's text as Markdown. No raw HTML: react-markdown escapes it unless told otherwise. A refusal
 * (the model declined to answer) is marked as such.
 */
export function TextOutput({
  text,
  streaming = false,
  refused = false,
}: {
  text: string;
  streaming?: boolean;
  refused?: boolean;
}) {
  return (
    <div className={`text-output${streaming ? ' streaming' : ''}${refused ? ' refused' : ''}`}>
      {refused && <span className="refused-label">Refused</span>}
      <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
    </div>
  );
}
