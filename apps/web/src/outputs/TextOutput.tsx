import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** The model's text as Markdown. No raw HTML: react-markdown escapes it unless told otherwise. */
export function TextOutput({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return (
    <div className={`text-output${streaming ? ' streaming' : ''}`}>
      <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
    </div>
  );
}
