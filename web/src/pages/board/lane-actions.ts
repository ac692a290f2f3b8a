import { type MouseEvent, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Card, Lane } from '../../api/boards';
import { useArchiveTask, useCreateTask, useRenameCard } from '../../api/tasks';
import { errorMessage } from '../../components/ui';
import { focusCard } from './board-keys';
import type { LaneActions } from './lane-column';

/** How long a toast offers to undo the change it reports. */
export const UNDO_MS = 8000;

/**
 * What a lane and its cards can do, stable for the board's life, so a memoised lane re-renders only
 * when its own cards change. The dialogs and the title editor are the board page's (its latest
 * callbacks are used).
 */
export function useLaneActions(
  boardId: string,
  page: {
    openMove: (card: Card) => void;
    openAssign: (card: Card) => void;
    rename: (lane: Lane) => void;
    remove: (lane: Lane) => void;
    /** Which card's title is being edited in place (null: none). */
    setEditing: (cardId: string | null) => void;
  },
): LaneActions {
  const create = useCreateTask(boardId);
  const archive = useArchiveTask(boardId);
  const renameCard = useRenameCard(boardId);
  const latest = useRef({ page, create: create.mutateAsync, archive: archive.mutateAsync });
  latest.current = { page, create: create.mutateAsync, archive: archive.mutateAsync };
  const rename = useRef(renameCard.mutate);
  rename.current = renameCard.mutate;
  // Neither adding nor archiving re-reads the board: the change's live event brings the card.
  return useMemo<LaneActions>(() => {
    const toggleArchive = async (card: Card, undoable: boolean) => {
      try {
        await latest.current.archive(card);
        const what = card.archived ? `“${card.title}” unarchived` : `“${card.title}” archived`;
        toast.success(what, {
          duration: UNDO_MS,
          action: undoable
            ? {
                label: 'Undo',
                onClick: () => void toggleArchive({ ...card, archived: !card.archived }, false),
              }
            : undefined,
        });
      } catch (error) {
        toast.error(errorMessage(error));
      }
    };
    return {
      addTask: (laneId, title) => latest.current.create({ laneId, title }),
      rename: (lane) => latest.current.page.rename(lane),
      remove: (lane) => latest.current.page.remove(lane),
      move: (card) => latest.current.page.openMove(card),
      assign: (card) => latest.current.page.openAssign(card),
      archive: (card) => void toggleArchive(card, true),
      editTitle: (card) => latest.current.page.setEditing(card.id),
      saveTitle: (card, title) => {
        latest.current.page.setEditing(null);
        focusCard(card.id);
        if (title === null) return;
        rename.current(
          { card, title },
          { onError: (error) => toast.error(`The title was not saved: ${errorMessage(error)}`) },
        );
      },
    };
  }, []);
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
    // Opened from the board: the task shows as a panel over it (web/src/pages/task/task-panel.tsx).
    navigate(link.getAttribute('href') ?? '/', { state: { overBoard: true } });
  };
}
