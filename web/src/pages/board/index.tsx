import { UserCheck } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import {
  type Card,
  type Lane,
  useAddLane,
  useBoardView,
  useDeleteBoard,
  useDeleteLane,
  useMoveLane,
  useRenameBoard,
  useRenameLane,
} from '../../api/boards';
import { useSession } from '../../api/session';
import { useMoveTask } from '../../api/tasks';
import { AssignDialog } from '../../components/assign-dialog';
import { ConfirmDialog } from '../../components/dialog';
import { MuteBoardButton } from '../../components/mute-board-button';
import { Button, ErrorState, errorMessage, FormError, fieldError, Loading } from '../../components/ui';
import { useBoardEvents } from '../../live/use-board-events';
import { BoardDnd, type Drop } from './board-dnd';
import { focusCard, useCardKeys } from './board-keys';
import { BoardShortcuts } from './board-shortcuts';
import { useAssignedToMe, useCardsByLane, useStableLanes } from './card-filter';
import { UNDO_MS, useLaneActions, useTaskLinkRouting } from './lane-actions';
import { LaneColumn } from './lane-column';
import { LaneTabs } from './lane-tabs';
import { MoveDialog } from './move-dialog';
import { NameDialog } from './name-dialog';
import { useRevealedLanes } from './reveal';
import { TagColorsProvider } from './tag-colors';

type Dialog =
  | { kind: 'move'; card: Card }
  | { kind: 'assign'; cardId: string }
  | { kind: 'rename-lane'; lane: Lane }
  | { kind: 'delete-lane'; lane: Lane }
  | { kind: 'rename-board' }
  | { kind: 'delete-board' }
  | null;

/** One board page per board: going to another board starts afresh (filter, dialogs, lane reveal). */
export default function BoardRoute() {
  const { boardId = '' } = useParams();
  return <BoardPage key={boardId} />;
}

function BoardPage() {
  const { boardId = '' } = useParams();
  const navigate = useNavigate();
  const [archived, setArchived] = useState(false);
  const [filter, setFilter] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const board = useBoardView(boardId, archived);
  useBoardEvents(boardId, board.data?.activityId);
  const [editing, setEditing] = useState<string | null>(null);
  const move = useMoveTask(boardId, archived);
  /**
   * Shows the move at once; a toast offers to put the card back. A move made from the dialog (keys, a
   * phone) focuses the card where it lands and scrolls it into view.
   */
  const moveCard = (card: Card, laneId: string, position: number, how: 'dialog' | 'drag' | 'undo') => {
    setDialog(null);
    move.mutate(
      { card, laneId, position },
      { onError: (error) => toast.error(`The move was refused: ${errorMessage(error)}`) },
    );
    if (how !== 'drag') focusCard(card.id, laneId, position);
    const from = { laneId: card.laneId, position: card.position ?? 0 };
    if (how === 'undo' || (from.laneId === laneId && from.position === position)) return;
    const laneName = board.data?.lanes.find((lane) => lane.id === laneId)?.name ?? 'another lane';
    toast(`“${card.title}” moved to ${laneName}`, {
      duration: UNDO_MS,
      action: {
        label: 'Undo',
        onClick: () => moveCard({ ...card, laneId, position }, from.laneId, from.position, 'undo'),
      },
    });
  };
  const moveLane = useMoveLane(boardId, archived);
  const onDrop = (drop: Drop) => {
    if (drop.kind === 'lane') {
      return moveLane.mutate(
        { laneId: drop.laneId, position: drop.position },
        { onError: (error) => toast.error(`The lane move was refused: ${errorMessage(error)}`) },
      );
    }
    const card = board.data?.tasks.find((t) => t.id === drop.taskId);
    if (card) moveCard(card, drop.laneId, drop.position, 'drag');
  };
  const addLane = useAddLane(boardId);
  const renameLane = useRenameLane(boardId);
  const deleteLane = useDeleteLane(boardId);
  const renameBoard = useRenameBoard(boardId);
  const deleteBoard = useDeleteBoard(boardId);

  const lanes = useStableLanes(board.data?.lanes);
  const session = useSession();
  const [mine, setMine] = useAssignedToMe();
  const cardsByLane = useCardsByLane(board.data?.tasks, filter, mine ? (session.data?.id ?? '') : null);

  const laneActions = useLaneActions(boardId, {
    // The card as the cache has it now: a card on screen may carry an old position (card.tsx's memo).
    openMove: (card) =>
      setDialog({ kind: 'move', card: board.data?.tasks.find((t) => t.id === card.id) ?? card }),
    openAssign: (card) => setDialog({ kind: 'assign', cardId: card.id }),
    rename: (lane) => setDialog({ kind: 'rename-lane', lane }),
    remove: (lane) => setDialog({ kind: 'delete-lane', lane }),
    setEditing,
  });
  useCardKeys(lanes, cardsByLane, laneActions);
  const editingLane = editing ? board.data?.tasks.find((task) => task.id === editing)?.laneId : undefined;
  const revealed = useRevealedLanes(lanes.length, board.data?.tasks.length);

  const followTaskLink = useTaskLinkRouting();

  useEffect(() => {
    document.title = board.data ? `${board.data.board.name} · Laneboard` : 'Board · Laneboard';
  }, [board.data]);

  if (board.isPending) return <Loading label="Loading board…" />;
  if (board.isError) return <ErrorState error={board.error} onRetry={() => board.refetch()} />;
  const { data } = board;
  const submitLane = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    addLane.mutate(String(new FormData(form).get('name')), { onSuccess: () => form.reset() });
  };
  const taskTotal = data.tasks.length;
  // The card as the cache has it now, so the picker follows its own changes and the live events.
  const assigning = dialog?.kind === 'assign' ? data.tasks.find((t) => t.id === dialog.cardId) : undefined;
  return (
    <TagColorsProvider colors={data.tagColors}>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Link to="/" className="text-sm text-zinc-700 hover:underline dark:text-zinc-300">
          Boards
        </Link>
        <span aria-hidden className="text-zinc-400">
          /
        </span>
        <h1 className="text-xl font-semibold">{data.board.name}</h1>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <label htmlFor="board-filter" className="sr-only">
            Filter tasks
          </label>
          <input
            id="board-filter"
            type="search"
            placeholder="Filter by text or tag"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className="w-48 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
          <Button aria-pressed={mine} variant={mine ? 'primary' : 'secondary'} onClick={() => setMine(!mine)}>
            <UserCheck aria-hidden className="size-4" /> Assigned to me
          </Button>
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={archived}
              onChange={(event) => setArchived(event.target.checked)}
            />
            Show archived
          </label>
          <Link
            to={`/boards/${boardId}/history`}
            className="rounded-md px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
          >
            History
          </Link>
          <MuteBoardButton boardId={boardId} />
          <Button onClick={() => setDialog({ kind: 'rename-board' })}>Rename</Button>
          <Button variant="danger-ghost" onClick={() => setDialog({ kind: 'delete-board' })}>
            Delete board
          </Button>
        </div>
      </div>
      <LaneTabs lanes={lanes} />
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: routes the cards' links' clicks (Enter on a link is a click) */}
      <div
        className="relative flex snap-x snap-mandatory items-start gap-3 overflow-x-auto pb-4 sm:snap-none"
        onClick={followTaskLink}
      >
        <BoardDnd data={data} onDrop={onDrop}>
          {lanes.map((lane, index) => (
            <LaneColumn
              key={lane.id}
              lane={lane}
              cards={cardsByLane.get(lane.id) ?? []}
              revealed={index < revealed}
              actions={laneActions}
              editingId={lane.id === editingLane ? (editing ?? undefined) : undefined}
            />
          ))}
        </BoardDnd>
        <form
          onSubmit={submitLane}
          className="w-56 shrink-0 space-y-2 rounded-lg border border-dashed border-zinc-300 p-3 dark:border-zinc-700"
        >
          <label htmlFor="new-lane" className="block text-sm font-medium">
            {lanes.length === 0 ? 'This board has no lanes yet: add the first' : 'Add lane'}
          </label>
          <input
            id="new-lane"
            name="name"
            required
            placeholder="Todo, Doing, Done…"
            className="block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
          {fieldError(addLane.error, 'name') ? (
            <p className="text-xs text-red-700 dark:text-red-400">{fieldError(addLane.error, 'name')}</p>
          ) : (
            <FormError error={addLane.error} />
          )}
          <Button type="submit" variant="primary" busy={addLane.isPending}>
            Add lane
          </Button>
        </form>
      </div>
      <BoardShortcuts />
      {dialog?.kind === 'move' && (
        <MoveDialog
          card={dialog.card}
          lanes={lanes}
          tasks={data.tasks}
          busy={move.isPending}
          error={null}
          onMove={(laneId, position) => moveCard(dialog.card, laneId, position, 'dialog')}
          onClose={() => setDialog(null)}
        />
      )}
      {assigning && (
        <AssignDialog
          boardId={boardId}
          taskId={assigning.id}
          title={assigning.title}
          assignees={assigning.assignees ?? []}
          onClose={() => {
            setDialog(null);
            focusCard(assigning.id);
          }}
        />
      )}
      {dialog?.kind === 'rename-lane' && (
        <NameDialog
          title="Rename lane"
          initial={dialog.lane.name}
          onSave={(name) => renameLane.mutateAsync({ laneId: dialog.lane.id, name })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'rename-board' && (
        <NameDialog
          title="Rename board"
          initial={data.board.name}
          onSave={(name) => renameBoard.mutateAsync(name)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete-lane' && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDialog(null)}
          title={`Delete lane “${dialog.lane.name}”?`}
          description={`Its ${dialog.lane.taskCount} ${dialog.lane.taskCount === 1 ? 'task goes' : 'tasks go'} with it (archived ones too), with their comments, todos and files.`}
          confirmLabel="Delete lane"
          onConfirm={() => {
            const lane = dialog.lane;
            setDialog(null);
            deleteLane.mutate(lane.id, {
              onSuccess: () => toast.success(`Lane “${lane.name}” deleted`),
              onError: (error) => toast.error(errorMessage(error)),
            });
          }}
        />
      )}
      {dialog?.kind === 'delete-board' && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDialog(null)}
          title={`Delete board “${data.board.name}”?`}
          description={`Everything in it goes: ${lanes.length} ${lanes.length === 1 ? 'lane' : 'lanes'} and ${taskTotal} ${taskTotal === 1 ? 'task' : 'tasks'}, with their comments, todos and files.`}
          confirmLabel="Delete board"
          onConfirm={() =>
            deleteBoard.mutate(undefined, {
              onSuccess: () => {
                toast.success(`Board “${data.board.name}” deleted`);
                navigate('/');
              },
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        />
      )}
    </TagColorsProvider>
  );
}
