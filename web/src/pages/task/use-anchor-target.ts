import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import type { TaskItemKind } from '../../lib/task-anchor';

/** How long the comment (todo, turn) the address points at stays highlighted after it is scrolled to. */
export const HIGHLIGHT_MS = 3000;

/**
 * The task page opened at one of its texts (`#comment-cmt_...`, lib/task-anchor.ts): once the list of
 * `kind` is on the page (`ready`), scrolls the element into view, moves the focus to
 * it (screen readers and the keyboard continue from there) and returns its id for HIGHLIGHT_MS, so the
 * list marks it briefly. Each navigation to the address does it again, and nothing is done when the
 * element is not there (a deleted comment, a turn not on the first page).
 */
export function useAnchorTarget(kind: TaskItemKind, ready: boolean): string | null {
  const { hash, key } = useLocation();
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const target = decodeURIComponent(hash.slice(1));
  const prefix = `${kind}-`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` re-runs it for each navigation to the same address
  useEffect(() => {
    if (!ready || !target.startsWith(prefix)) return;
    const element = document.getElementById(target);
    if (!element) return;
    // At once rather than smoothly, as a link to a place in a page does: the page may still grow.
    const place = () =>
      element.scrollIntoView({
        // A long text shows its start; a short one sits in the middle, with what comes before and after.
        block: element.offsetHeight > window.innerHeight * 0.8 ? 'start' : 'center',
      });
    // Someone who already clicked into the page (the comment box, a button) before the list arrived
    // keeps their focus and their place: the text is only marked.
    const active = document.activeElement;
    if (active && active !== document.body) {
      setHighlighted(target.slice(prefix.length));
      const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
      return () => clearTimeout(timer);
    }
    element.focus({ preventScroll: true });
    place();
    // The page is still settling (Markdown renders after its chunk loads, other lists arrive): the text
    // is kept in place while the highlight lasts, unless the person scrolls on their own.
    let settled = false;
    const letGo = () => {
      settled = true;
    };
    const moves = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;
    for (const move of moves) window.addEventListener(move, letGo, { passive: true });
    const resized = new ResizeObserver(() => settled || place());
    resized.observe(document.body);
    setHighlighted(target.slice(prefix.length));
    const timer = setTimeout(() => {
      setHighlighted(null);
      resized.disconnect();
    }, HIGHLIGHT_MS);
    return () => {
      clearTimeout(timer);
      resized.disconnect();
      for (const move of moves) window.removeEventListener(move, letGo);
    };
  }, [ready, target, prefix, key]);
  return highlighted;
}

/** The classes of a text the address points at: a brief ring and tint that fade out (data-highlighted). */
export const HIGHLIGHT_CLASSES =
  'scroll-mt-4 transition-[background-color,box-shadow] duration-700 data-highlighted:bg-accent-50 data-highlighted:ring-2 data-highlighted:ring-accent-600 dark:data-highlighted:bg-zinc-800 dark:data-highlighted:ring-accent-400';
