import { lazy, Suspense } from 'react';
import './outputs.css';

/** Loaded with the first text shown: the parser and the highlighter stay out of the first paint's script. */
const Markdown = lazy(() => import('./Markdown.tsx'));

/**
 * The model's text as Markdown (see ./Markdown.tsx). Until the renderer has loaded, the text shows as it is,
 * so nothing waits for it. A refusal (the model declined to answer) is marked as such.
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
      <Suspense fallback={<p className="plain-text">{text}</p>}>
        <Markdown text={text} />
      </Suspense>
    </div>
  );
}
