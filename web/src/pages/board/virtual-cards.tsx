import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { Card } from '../../api/boards';
import { laneScrollers } from './board-keys';
import { type CardActions, TaskCard } from './card';

/** Lanes longer than this render only the cards in view (a board of thousands stays responsive). */
export const VIRTUAL_FROM = 40;

/**
 * A long lane's cards in their own scroll area, only the visible ones (and a few more) in the DOM.
 * Heights are measured as cards render; the estimate only sizes the scrollbar until then.
 */
export function VirtualCards({
  laneId,
  cards,
  actions,
  editingId,
}: {
  laneId: string;
  cards: Card[];
  actions: CardActions;
  editingId?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 54,
    gap: 6,
    // Few cards beyond the visible ones: every mounted card is a drag-and-drop registration.
    overscan: 2,
    getItemKey: (index) => cards[index]?.id ?? index,
  });
  // The board's keys bring a card that is not rendered into view (board-keys.ts).
  useEffect(() => {
    laneScrollers.set(laneId, (index) => virtualizer.scrollToIndex(index, { align: 'auto' }));
    return () => {
      laneScrollers.delete(laneId);
    };
  }, [laneId, virtualizer]);
  return (
    <div ref={scroller} className="max-h-[70vh] overflow-y-auto">
      <ul className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const card = cards[item.index]!;
          return (
            <TaskCard
              key={item.key}
              card={card}
              index={item.index}
              top={item.start}
              measure={virtualizer.measureElement}
              actions={actions}
              editing={card.id === editingId}
            />
          );
        })}
      </ul>
    </div>
  );
}
