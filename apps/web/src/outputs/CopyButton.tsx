import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from './action-icons.tsx';

/**
 * Copies text to the clipboard (the text is read when clicked, so a streaming answer copies what it has),
 * and says whether that worked: a refused clipboard (an insecure page, a denied permission) is told, not hidden.
 */
export function CopyButton({
  text,
  label = 'Copy',
  className = '',
}: {
  text: () => string;
  label?: string;
  className?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  const shown = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label;
  return (
    <button type="button" className={`icon-action ${className}`} onClick={() => void copy()}>
      {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
      <span aria-live="polite">{shown}</span>
    </button>
  );
}
