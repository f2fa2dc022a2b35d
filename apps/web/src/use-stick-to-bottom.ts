import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/** How close to the end (px) still counts as "at the end": a reader that far up is following along. */
const NEAR_END = 80;

/**
 * Keeps a scroll container at its end while its content grows — streamed text, and images and file
 * previews that get their height only when they load, after the render that added them — unless the
 * reader scrolled up to read. A ResizeObserver on the content sees every growth, whatever caused it.
 * Returns whether the view is at the end, and a function to jump there (and follow again).
 */
export function useStickToBottom(
  scroller: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
) {
  const following = useRef(true);
  const [atEnd, setAtEnd] = useState(true);

  const toEnd = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    following.current = true;
    setAtEnd(true);
    el.scrollTop = el.scrollHeight;
  }, [scroller]);

  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    let lastTop = el.scrollTop;
    const onScroll = () => {
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      // Only the reader moving up stops following; growth below never does.
      if (el.scrollTop < lastTop && distance > NEAR_END) following.current = false;
      else if (distance <= NEAR_END) following.current = true;
      lastTop = el.scrollTop;
      setAtEnd(following.current);
    };
    const observer = new ResizeObserver(() => {
      if (following.current) {
        el.scrollTop = el.scrollHeight;
        lastTop = el.scrollTop;
      }
    });
    observer.observe(inner);
    observer.observe(el); // the container shrinks too: the keyboard opens, the composer grows
    el.addEventListener('scroll', onScroll, { passive: true });
    el.scrollTop = el.scrollHeight;
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [scroller, content]);

  return { atEnd, toEnd };
}
