import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Bot, CheckSquare, GripVertical, MessageSquare, Paperclip } from 'lucide-react';
import { memo, useCallback } from 'react';
import { useParams } from 'react-router';
import { type Card, PRIORITY_LABELS } from '../../api/boards';
import { AtWorkMark } from './at-work';
import { CardMenu } from './card-menu';
import { CardTitleEditor } from './card-title-editor';
import { CardTag } from './tag-colors';

const PRIORITY_TONES = [
  '',
  'text-zinc-700 dark:text-zinc-300',
  'text-amber-800 dark:text-amber-300',
  'text-orange-800 dark:text-orange-300',
  'text-red-800 dark:text-red-300',
];

export interface CardActions {
  move: (card: Card) => void;
  assign: (card: Card) => void;
  archive: (card: Card) => void;
  editTitle: (card: Card) => void;
  saveTitle: (card: Card, title: string | null) => void;
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

/**
 * One task on the board: its title and one line of meta (shortId, priority, tags, counts, assignees,
 * the "at work" mark). Its actions are in a menu that shows on hover and focus; the board's keys act on the
 * focused card (board-keys.ts). Memoised (props are the card and stable callbacks), so a change to one
 * card re-renders that card only (sameCardProps).
 */
interface CardProps {
  card: Card;
  actions: CardActions;
  /** The title is being edited in place (`e`). */
  editing?: boolean;
  /** In a virtualised lane: where the card sits, and the ref that measures it. */
  index?: number;
  top?: number;
  measure?: (element: HTMLElement | null) => void;
}

export const TaskCard = memo(function TaskCard({ card, actions, editing, index, top, measure }: CardProps) {
  const { boardId = '' } = useParams();
  const sortable = useSortable({ id: card.id, disabled: card.archived || editing });
  const assignees = card.assignees ?? [];
  // Stable, so a re-render does not detach and re-attach it (which measured the card again).
  const { setNodeRef } = sortable;
  const ref = useCallback(
    (element: HTMLLIElement | null) => {
      setNodeRef(element);
      measure?.(element);
    },
    [setNodeRef, measure],
  );
  return (
    <li
      ref={ref}
      data-index={index}
      data-card-id={card.id}
      style={{
        transform: CSS.Translate.toString(sortable.transform),
        transition: sortable.transition,
        ...(top !== undefined ? { position: 'absolute', insetInline: 0, top } : {}),
      }}
      aria-label={card.title}
      className={`group relative rounded-md border border-zinc-200 bg-white px-2 py-1.5 text-sm focus-within:border-accent-600 dark:border-zinc-800 dark:bg-zinc-900 ${card.archived || sortable.isDragging ? 'opacity-70' : ''} ${sortable.isDragging ? 'z-10 shadow-lg' : ''}`}
    >
      <div className="flex items-start gap-1">
        {!card.archived && (
          <button
            type="button"
            {...sortable.attributes}
            {...sortable.listeners}
            aria-label={`Drag ${card.title}`}
            className="-ml-1 mt-0.5 cursor-grab touch-none rounded p-0.5 text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
          >
            <GripVertical aria-hidden className="size-3.5" />
          </button>
        )}
        {editing ? (
          <CardTitleEditor card={card} onDone={(title) => actions.saveTitle(card, title)} />
        ) : (
          <p className="min-w-0 flex-1 font-medium leading-snug break-words">
            {/* A plain link (a board renders hundreds): the board's container routes its clicks (lane-actions.ts). */}
            <a
              href={`/boards/${boardId}/tasks/${card.id}`}
              data-task-link
              className="rounded-sm hover:underline"
            >
              {card.title}
            </a>
          </p>
        )}
        <CardMenu card={card} actions={actions} />
      </div>
      <div className="mt-0.5 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400">
        <code>{card.shortId}</code>
        {card.priority > 0 && (
          <span className={`font-medium ${PRIORITY_TONES[card.priority]}`}>
            {PRIORITY_LABELS[card.priority]}
          </span>
        )}
        {card.archived && <span>Archived</span>}
        {card.tags.map((tag) => (
          <CardTag key={tag} tag={tag} />
        ))}
        {card.todos && card.todos.total > 0 && (
          <span className="inline-flex items-center gap-0.5" title="Todos done">
            <CheckSquare aria-hidden className="size-3" />
            <span className="sr-only">Todos </span>
            {card.todos.done}/{card.todos.total}
          </span>
        )}
        {card.commentCount !== undefined && card.commentCount > 0 && (
          <span className="inline-flex items-center gap-0.5">
            <MessageSquare aria-hidden className="size-3" />
            {card.commentCount}
            <span className="sr-only"> comments</span>
          </span>
        )}
        {card.assetCount !== undefined && card.assetCount > 0 && (
          <span className="inline-flex items-center gap-0.5">
            <Paperclip aria-hidden className="size-3" />
            {card.assetCount}
            <span className="sr-only"> files</span>
          </span>
        )}
        <span className="ml-auto flex shrink-0 items-center gap-1">
          {assignees.length > 0 && (
            <span className="flex -space-x-1" title={assignees.map((a) => a.name).join(', ')}>
              <span className="sr-only">Assigned to {assignees.map((a) => a.name).join(', ')}</span>
              {assignees.slice(0, 3).map((assignee) => (
                <span
                  key={assignee.id}
                  aria-hidden
                  data-assignee={assignee.type}
                  className={`inline-flex size-5 items-center justify-center rounded-full border border-white text-[10px] font-semibold dark:border-zinc-900 ${assignee.type === 'agent' ? 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200' : 'bg-zinc-200 text-zinc-800 dark:bg-zinc-700 dark:text-zinc-100'}`}
                >
                  {assignee.type === 'agent' ? <Bot className="size-3" /> : initials(assignee.name)}
                </span>
              ))}
              {assignees.length > 3 && (
                <span aria-hidden className="pl-1.5">
                  +{assignees.length - 3}
                </span>
              )}
            </span>
          )}
        </span>
      </div>
      {card.atWork && card.atWork.length > 0 && <AtWorkMark atWork={card.atWork} />}
    </li>
  );
}, sameCardProps);

/**
 * Memo's comparison: the card's place in its lane (`position`) shows nowhere on it, so renumbering a
 * lane after a move leaves its other cards alone; every other field compares by reference.
 */
function sameCardProps(a: CardProps, b: CardProps): boolean {
  if (
    a.actions !== b.actions ||
    a.editing !== b.editing ||
    a.index !== b.index ||
    a.top !== b.top ||
    a.measure !== b.measure
  )
    return false;
  if (a.card === b.card) return true;
  const keys = Object.keys(a.card) as Array<keyof Card>;
  if (keys.length !== Object.keys(b.card).length) return false;
  return keys.every((key) => key === 'position' || a.card[key] === b.card[key]);
}
