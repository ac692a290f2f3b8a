import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { lazy, type ReactNode, Suspense } from 'react';
import { useNavigate } from 'react-router';

// The board's own chunk (the route loads it too): a static import would fold it into the task page's.
const BoardRoute = lazy(() => import('../board/index'));

/** The history state of a task opened from its board: it then shows as a panel over the board. */
export interface OverBoardState {
  overBoard: true;
}

export const isOverBoard = (state: unknown): state is OverBoardState =>
  (state as Partial<OverBoardState> | null)?.overBoard === true;

/**
 * A task opened from the board: the board stays underneath and the task is a side panel at the task's
 * own address. Esc, the close button or the browser's Back all go back to the board; a shared link (no
 * history state) shows the task page on its own.
 */
export function TaskOverBoard({ title, children }: { title: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <>
      <Suspense>
        <BoardRoute />
      </Suspense>
      <Dialog.Root open onOpenChange={(open) => !open && navigate(-1)}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
          <Dialog.Content
            aria-describedby={undefined}
            className="fixed inset-y-0 right-0 z-50 w-full max-w-4xl overflow-y-auto border-l border-zinc-200 bg-white p-5 shadow-lg dark:border-zinc-800 dark:bg-zinc-950"
          >
            <Dialog.Title className="sr-only">{title}</Dialog.Title>
            <Dialog.Close
              aria-label="Close the task"
              className="float-right rounded p-1 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
            >
              <X aria-hidden className="size-5" />
            </Dialog.Close>
            {children}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
