import { SmilePlus } from 'lucide-react';
import { toast } from 'sonner';
import { type Comment, type ReactionContent, useToggleReaction } from '../../api/comments';
import { errorMessage } from '../../components/ui';

/** GitHub's eight reactions, in the order the server counts them. */
export const REACTIONS: ReadonlyArray<{ content: ReactionContent; emoji: string; label: string }> = [
  { content: '+1', emoji: '👍', label: 'thumbs up' },
  { content: '-1', emoji: '👎', label: 'thumbs down' },
  { content: 'laugh', emoji: '😄', label: 'laugh' },
  { content: 'confused', emoji: '😕', label: 'confused' },
  { content: 'heart', emoji: '❤️', label: 'heart' },
  { content: 'hooray', emoji: '🎉', label: 'hooray' },
  { content: 'rocket', emoji: '🚀', label: 'rocket' },
  { content: 'eyes', emoji: '👀', label: 'eyes' },
];

const chip =
  'inline-flex min-h-7 items-center gap-1 rounded-full border px-2 text-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

export function Reactions({
  boardId,
  taskId,
  comment,
}: {
  boardId: string;
  taskId: string;
  comment: Comment;
}) {
  const reaction = useToggleReaction(boardId, taskId, comment.id);
  const toggle = {
    isPending: reaction.isPending,
    mutate: (vars: { content: ReactionContent; mine: boolean }) =>
      reaction.mutate(vars, { onError: (error) => toast.error(errorMessage(error)) }),
  };
  const counts = new Map(comment.reactions.map((r) => [r.content, r]));
  return (
    <div className="mt-2 flex flex-wrap items-center gap-1.5">
      {REACTIONS.filter((r) => counts.has(r.content)).map((r) => {
        const count = counts.get(r.content);
        const mine = count?.mine === true;
        return (
          <button
            key={r.content}
            type="button"
            aria-pressed={mine}
            aria-label={`${r.label}: ${count?.count ?? 0}${mine ? ', including you' : ''}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate({ content: r.content, mine })}
            className={`${chip} ${
              mine
                ? 'border-blue-600 bg-blue-50 text-blue-900 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-100'
                : 'border-zinc-300 text-zinc-800 dark:border-zinc-700 dark:text-zinc-200'
            }`}
          >
            <span aria-hidden>{r.emoji}</span>
            {count?.count}
          </button>
        );
      })}
      <details className="relative">
        <summary
          aria-label="Add a reaction"
          className={`${chip} cursor-pointer list-none border-zinc-300 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300`}
        >
          <SmilePlus aria-hidden className="size-3.5" />
        </summary>
        <div className="absolute z-10 mt-1 flex gap-1 rounded-md border border-zinc-200 bg-white p-1 shadow dark:border-zinc-700 dark:bg-zinc-900">
          {REACTIONS.map((r) => {
            const mine = counts.get(r.content)?.mine === true;
            return (
              <button
                key={r.content}
                type="button"
                aria-label={`React with ${r.label}`}
                aria-pressed={mine}
                onClick={(event) => {
                  event.currentTarget.closest('details')?.removeAttribute('open');
                  toggle.mutate({ content: r.content, mine });
                }}
                className={`rounded px-1.5 py-1 text-base hover:bg-zinc-100 dark:hover:bg-zinc-800 ${mine ? 'bg-blue-50 dark:bg-blue-950' : ''}`}
              >
                <span aria-hidden>{r.emoji}</span>
              </button>
            );
          })}
        </div>
      </details>
    </div>
  );
}
