import { useEffect, useRef } from 'react';
import type { Card, Lane } from '../../api/boards';

/** Lanes that render only the cards in view register how to bring a card into view (virtual-cards.tsx). */
export const laneScrollers = new Map<string, (index: number) => void>();

const cardLink = (cardId: string, laneId?: string) =>
  document.querySelector<HTMLElement>(
    `${laneId ? `[aria-labelledby="lane-${CSS.escape(laneId)}"] ` : ''}[data-card-id="${CSS.escape(cardId)}"] a[data-task-link]`,
  );

/**
 * Focuses a card's title link (in `laneId` when given: a moved card once it shows there), bringing it
 * into view: a virtualised lane scrolls to it and the card is focused once rendered (a few frames).
 */
export function focusCard(cardId: string, laneId?: string, index?: number): void {
  const existing = cardLink(cardId, laneId);
  if (existing) {
    existing.focus();
    existing.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    return;
  }
  if (laneId !== undefined && index !== undefined) laneScrollers.get(laneId)?.(index);
  let frames = 0;
  const retry = () => {
    const link = cardLink(cardId, laneId);
    if (link) {
      link.focus();
      link.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    } else if (++frames < 60) requestAnimationFrame(retry);
  };
  requestAnimationFrame(retry);
}

export interface CardKeyActions {
  move: (card: Card) => void;
  assign: (card: Card) => void;
  archive: (card: Card) => void;
  editTitle: (card: Card) => void;
}

const TYPING = 'input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"]';

/**
 * The board's card keys, on the focused card: arrows or h j k l go to the card above or below, or to
 * the lane on either side (the same row, or its last card); `m` moves, `a` assigns, `e` edits the title, `x`
 * archives; Enter opens (the title is a link). With no card focused, an arrow or j/k/h/l focuses the
 * first card. Nothing fires while typing, in a dialog or menu, or with a modifier.
 */
export function useCardKeys(lanes: Lane[], cardsByLane: Map<string, Card[]>, actions: CardKeyActions): void {
  const latest = useRef({ lanes, cardsByLane, actions });
  latest.current = { lanes, cardsByLane, actions };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement;
      // Typing, dialogs and menus keep their keys, and so does a drag handle (its arrows drag).
      if (target.closest(TYPING) || target.closest('[aria-roledescription]')) return;
      const { lanes, cardsByLane, actions } = latest.current;
      const cardId = target.closest<HTMLElement>('[data-card-id]')?.dataset.cardId;
      // The card's lane from the page (its section), not a search of every lane's cards.
      const laneLabel = target.closest('section[aria-labelledby^="lane-"]')?.getAttribute('aria-labelledby');
      const laneIndex = cardId ? lanes.findIndex((lane) => `lane-${lane.id}` === laneLabel) : -1;
      const laneCards = laneIndex >= 0 ? (cardsByLane.get(lanes[laneIndex]!.id) ?? []) : [];
      const row = laneCards.findIndex((c) => c.id === cardId);
      const card = laneCards[row];
      const step = STEPS[event.key];
      if (step) {
        event.preventDefault();
        if (!card) {
          const first = lanes.find((lane) => cardsByLane.get(lane.id)?.length);
          const firstCard = first && cardsByLane.get(first.id)![0];
          if (first && firstCard) focusCard(firstCard.id, first.id, 0);
          return;
        }
        if (step.rows) {
          const next = laneCards[row + step.rows];
          if (next) focusCard(next.id, next.laneId, row + step.rows);
          return;
        }
        for (let l = laneIndex + step.lanes; l >= 0 && l < lanes.length; l += step.lanes) {
          const cards = cardsByLane.get(lanes[l]!.id) ?? [];
          if (cards.length === 0) continue;
          const index = Math.min(row, cards.length - 1);
          return focusCard(cards[index]!.id, lanes[l]!.id, index);
        }
        return;
      }
      if (!card) return;
      const act = { m: actions.move, a: actions.assign, e: actions.editTitle, x: actions.archive }[event.key];
      if (!act || (card.archived && event.key !== 'x')) return;
      event.preventDefault();
      act(card);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

const STEPS: Record<string, { rows: number; lanes: number }> = {
  ArrowDown: { rows: 1, lanes: 0 },
  j: { rows: 1, lanes: 0 },
  ArrowUp: { rows: -1, lanes: 0 },
  k: { rows: -1, lanes: 0 },
  ArrowLeft: { rows: 0, lanes: -1 },
  h: { rows: 0, lanes: -1 },
  ArrowRight: { rows: 0, lanes: 1 },
  l: { rows: 0, lanes: 1 },
};
