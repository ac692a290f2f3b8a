import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Bot, CheckSquare, GripVertical, MessageSquare, Paperclip } from 'lucide-react';
import { memo } from 'react';
import { useParams } from 'react-router';
import { type Card, PRIORITY_LABELS } from '../../api/boards';
import { Button } from '../../components/ui';

const PRIORITY_TONES = [
  '',
  'text-zinc-700 dark:text-zinc-300',
  'text-amber-800 dark:text-amber-300',
  'text-orange-800 dark:text-orange-300',
  'text-red-800 dark:text-red-300',
];

/**
 * One task on the board: what it is, how far along, and whether an agent is on it. Memoised (props are
 * the card and stable callbacks), so a change to one card re-renders that card only.
 */
export const TaskCard = memo(function TaskCard({
  card,
  onMove,
  onArchive,
  index,
  top,
  measure,
}: {
  card: Card;
  onMove: (card: Card) => void;
  onArchive: (card: Card) => void;
  /** In a virtualised lane: where the card sits, and the ref that measures it. */
  index?: number;
  top?: number;
  measure?: (element: HTMLElement | null) => void;
}) {
  const { boardId = '' } = useParams();
  const sortable = useSortable({ id: card.id, disabled: card.archived });
  return (
    <li
      ref={(element) => {
        sortable.setNodeRef(element);
        measure?.(element);
      }}
      data-index={index}
      style={{
        transform: CSS.Translate.toString(sortable.transform),
        transition: sortable.transition,
        ...(top !== undefined ? { position: 'absolute', insetInline: 0, top } : {}),
      }}
      aria-label={card.title}
      className={`relative rounded-md border border-zinc-200 bg-white p-2.5 text-sm dark:border-zinc-800 dark:bg-zinc-900 ${card.archived || sortable.isDragging ? 'opacity-70' : ''} ${sortable.isDragging ? 'z-10 shadow-lg' : ''}`}
    >
      <div className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        {!card.archived && (
          <button
            type="button"
            {...sortable.attributes}
            {...sortable.listeners}
            aria-label={`Drag ${card.title}`}
            className="-ml-1 cursor-grab touch-none rounded p-0.5 hover:bg-zinc-100 dark:hover:bg-zinc-800"
          >
            <GripVertical aria-hidden className="size-3.5" />
          </button>
        )}
        <code>{card.shortId}</code>
        {card.priority > 0 && (
          <span className={`font-medium ${PRIORITY_TONES[card.priority]}`}>
            {PRIORITY_LABELS[card.priority]}
          </span>
        )}
        {card.archived && <span>Archived</span>}
        {card.agentActive && (
          <span
            className="ml-auto inline-flex items-center gap-1 text-accent-700 dark:text-accent-400"
            title="An agent worked on it in the last hour"
          >
            <Bot aria-hidden className="size-3.5" /> agent
          </span>
        )}
      </div>
      <p className="mt-1 font-medium break-words">
        {/* A plain link (a board renders hundreds): the board's container routes its clicks (index.tsx). */}
        <a href={`/boards/${boardId}/tasks/${card.id}`} data-task-link className="hover:underline">
          {card.title}
        </a>
      </p>
      {card.tags.length > 0 && (
        <ul className="mt-1.5 flex flex-wrap gap-1" aria-label="Tags">
          {card.tags.map((tag) => (
            <li key={tag} className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800">
              {tag}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-2 flex items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400">
        {card.todos && card.todos.total > 0 && (
          <span className="inline-flex items-center gap-1" title="Todos done">
            <CheckSquare aria-hidden className="size-3.5" />
            <span className="sr-only">Todos </span>
            {card.todos.done}/{card.todos.total}
          </span>
        )}
        {card.commentCount !== undefined && card.commentCount > 0 && (
          <span className="inline-flex items-center gap-1">
            <MessageSquare aria-hidden className="size-3.5" />
            {card.commentCount}
            <span className="sr-only"> comments</span>
          </span>
        )}
        {card.assetCount !== undefined && card.assetCount > 0 && (
          <span className="inline-flex items-center gap-1">
            <Paperclip aria-hidden className="size-3.5" />
            {card.assetCount}
            <span className="sr-only"> files</span>
          </span>
        )}
        <span className="ml-auto flex gap-1">
          {!card.archived && (
            <Button
              variant="ghost"
              className="min-h-7 px-2 py-0.5 text-xs"
              onClick={() => onMove(card)}
              aria-label={`Move to… ${card.title}`}
            >
              Move to…
            </Button>
          )}
          <Button
            variant="ghost"
            className="min-h-7 px-2 py-0.5 text-xs"
            onClick={() => onArchive(card)}
            aria-label={`${card.archived ? 'Unarchive' : 'Archive'} ${card.title}`}
          >
            {card.archived ? 'Unarchive' : 'Archive'}
          </Button>
        </span>
      </div>
    </li>
  );
});
