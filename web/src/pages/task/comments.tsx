import type { FormEvent } from 'react';
import { useAddComment, useComments } from '../../api/comments';
import { MentionTextarea } from '../../components/mention-textarea';
import { Badge, Button, ErrorState, FormError, Loading, Time } from '../../components/ui';
import { anchorId } from '../../lib/task-anchor';
import { MarkdownText } from './markdown';
import { Reactions } from './reactions';
import { HIGHLIGHT_CLASSES, useAnchorTarget } from './use-anchor-target';

const SOURCE_BADGES = { user: 'person', api: 'API', agent: 'agent' } as const;

export function Comments({ boardId, taskId }: { boardId: string; taskId: string }) {
  const comments = useComments(boardId, taskId);
  const add = useAddComment(boardId, taskId);
  // Opened at a comment (`#comment-cmt_...`: a search hit, a mention in the inbox): scrolled to, marked.
  const highlighted = useAnchorTarget('comment', comments.isSuccess);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    add.mutate(String(new FormData(form).get('body')), { onSuccess: () => form.reset() });
  };
  return (
    <section aria-labelledby="comments-heading" className="space-y-3">
      <h2 id="comments-heading" className="font-semibold">
        Comments
      </h2>
      {comments.isPending && <Loading label="Loading comments…" />}
      {comments.isError && <ErrorState error={comments.error} onRetry={() => comments.refetch()} />}
      {comments.data?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No comments yet.</p>
      )}
      <ol className="space-y-3">
        {comments.data?.map((comment) => (
          <li
            key={comment.id}
            id={anchorId('comment', comment.id)}
            tabIndex={-1}
            data-highlighted={highlighted === comment.id || undefined}
            aria-label={`Comment by ${comment.authorName}`}
            className={`rounded-md border border-zinc-200 p-3 dark:border-zinc-800 ${HIGHLIGHT_CLASSES}`}
          >
            <p className="mb-1 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
              <span className="font-medium text-zinc-900 dark:text-zinc-100">{comment.authorName}</span>
              <Badge tone={comment.authorSource === 'user' ? 'neutral' : 'accent'}>
                {SOURCE_BADGES[comment.authorSource]}
              </Badge>
              <Time iso={comment.createdAt} />
            </p>
            <MarkdownText text={comment.body} />
            <Reactions boardId={boardId} taskId={taskId} comment={comment} />
          </li>
        ))}
      </ol>
      <form onSubmit={submit} className="space-y-2">
        <label htmlFor="new-comment" className="block text-sm font-medium">
          Add a comment
        </label>
        <MentionTextarea
          id="new-comment"
          name="body"
          required
          rows={3}
          placeholder="Markdown is welcome; @ mentions a person or agent"
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <FormError error={add.error} />
        <Button type="submit" variant="primary" busy={add.isPending}>
          Comment
        </Button>
      </form>
    </section>
  );
}
