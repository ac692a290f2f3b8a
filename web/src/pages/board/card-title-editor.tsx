import { useEffect, useRef } from 'react';
import type { Card } from '../../api/boards';

/**
 * The card's title edited in place (`e`): Enter saves, Esc or leaving the field keeps the old title
 * (`null`). The board shows the new title at once; the live event confirms it.
 */
export function CardTitleEditor({ card, onDone }: { card: Card; onDone: (title: string | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  // Enter and the blur that follows the editor's removal must not both answer.
  const answered = useRef(false);
  const finish = (title: string | null) => {
    if (answered.current) return;
    answered.current = true;
    onDone(title);
  };
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  return (
    <input
      ref={input}
      defaultValue={card.title}
      aria-label={`Title of ${card.title}`}
      maxLength={500}
      className="min-w-0 flex-1 rounded border border-zinc-300 bg-white px-1 py-0 text-sm font-medium dark:border-zinc-700 dark:bg-zinc-900"
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') {
          event.preventDefault();
          const title = event.currentTarget.value.trim();
          finish(title && title !== card.title ? title : null);
        } else if (event.key === 'Escape') {
          event.preventDefault();
          finish(null);
        }
      }}
      onBlur={() => finish(null)}
    />
  );
}
