import { type ComponentProps, useRef } from 'react';
import { CopyButton } from './CopyButton.tsx';

type Hast = { properties?: { className?: unknown }; children?: Hast[] };

/** The language a fenced block names (`language-ts` on its <code>), for the label. */
const languageOf = (node: Hast | undefined) => {
  const classes = node?.children?.[0]?.properties?.className;
  const found = Array.isArray(classes)
    ? classes.find((c) => typeof c === 'string' && c.startsWith('language-'))
    : undefined;
  return typeof found === 'string' ? found.slice('language-'.length) : undefined;
};

/** A code block (already highlighted by class names) with its language and a button copying its text. */
export function CodeBlock({ node, children, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const pre = useRef<HTMLPreElement>(null);
  const language = languageOf(node as Hast);
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-language">{language ?? 'code'}</span>
        <CopyButton label="Copy code" text={() => pre.current?.textContent ?? ''} />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls; the keyboard must reach it */}
      <pre ref={pre} tabIndex={0} {...rest}>
        {children}
      </pre>
    </div>
  );
}
