import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from '../icons.tsx';

/**
 * The clipboard API exists only on secure pages (https, localhost); a server reached over plain http on a
 * network falls back to the older copy command on a selected, invisible field.
 */
async function writeClipboard(text: string) {
  if (navigator.clipboard) return navigator.clipboard.writeText(text);
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error('The browser refused to copy.');
}

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
      await writeClipboard(text());
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
