import { type MouseEvent, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Card, Lane } from '../../api/boards';
import { useArchiveTask, useCreateTask } from '../../api/tasks';
import { errorMessage } from '../../components/ui';
import type { LaneActions } from './lane-column';

/**
 * What a lane and its cards can do, stable for the board's life, so a memoised lane re-renders only
 * when its own cards change. The dialogs are the board page's (its latest callbacks are used).
 */
export function useLaneActions(
  boardId: string,
  openMove: (card: Card) => void,
  dialogs: { rename: (lane: Lane) => void; remove: (lane: Lane) => void },
): LaneActions {
  const create = useCreateTask(boardId);
  const archive = useArchiveTask(boardId);
  const latest = useRef({ openMove, dialogs, create: create.mutateAsync, archive: archive.mutateAsync });
  latest.current = { openMove, dialogs, create: create.mutateAsync, archive: archive.mutateAsync };
  // Neither adding nor archiving re-reads the board: the change's live event brings the card.
  return useMemo<LaneActions>(
    () => ({
      addTask: (laneId, title) => latest.current.create({ laneId, title }),
      rename: (lane) => latest.current.dialogs.rename(lane),
      remove: (lane) => latest.current.dialogs.remove(lane),
      move: (card) => latest.current.openMove(card),
      archive: async (card) => {
        try {
          await latest.current.archive(card);
          toast.success(card.archived ? `“${card.title}” unarchived` : `“${card.title}” archived`);
        } catch (error) {
          toast.error(errorMessage(error));
        }
      },
    }),
    [],
  );
}

/**
 * The cards' task links are plain anchors (cheaper than a router Link on each of hundreds of cards):
 * the board's container routes a plain click on one; modified clicks (new tab) stay the browser's.
 */
export function useTaskLinkRouting(): (event: MouseEvent<HTMLElement>) => void {
  const navigate = useNavigate();
  return (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-task-link]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    navigate(link.getAttribute('href') ?? '/');
  };
}
