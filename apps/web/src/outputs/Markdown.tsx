import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock.tsx';
import { MarkdownImage } from './MarkdownImage.tsx';
import './highlight.css';

/** Links leave the app in a new tab, without telling the other site where they came from. */
const components: Components = {
  img: ({ src, alt }) => <MarkdownImage src={typeof src === 'string' ? src : undefined} alt={alt} />,
  pre: CodeBlock,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
};

/**
 * The model's text as Markdown. No raw HTML: react-markdown escapes it unless told otherwise, and its URL
 * filter drops `javascript:` and other unsafe schemes. Images from other sites wait for the user (see
 * MarkdownImage). Fenced code is highlighted by class names (no inline script or style).
 *
 * A module of its own, loaded on demand (TextOutput): the parser and the highlighter's grammars are half the
 * app's script, and the first paint needs none of them.
 */
export default function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm]}
      rehypePlugins={[[rehypeHighlight, { detect: false, ignoreMissing: true }]]}
      components={components}
    >
      {text}
    </ReactMarkdown>
  );
}
