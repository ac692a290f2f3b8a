import { type Activity, useTaskActivities } from '../../api/activities';
import { Badge, Button, ErrorState, Loading, Time } from '../../components/ui';

/** What happened, as the rest of a sentence that starts with who did it. */
const VERBS: Record<string, string> = {
  'task.created': 'created the task',
  'task.updated': 'edited the task',
  'task.moved': 'moved the task',
  'task.archived': 'archived the task',
  'task.unarchived': 'restored the task',
  'task.deleted': 'deleted the task',
  'comment.created': 'commented',
  'comment.deleted': 'deleted a comment',
  'todo.created': 'added a todo',
  'todo.updated': 'changed a todo',
  'todo.deleted': 'deleted a todo',
  'asset.created': 'attached a file',
  'asset.deleted': 'deleted a file',
  'reaction.created': 'reacted to a comment',
  'reaction.deleted': 'removed a reaction',
  'task.assigned': 'assigned',
  'task.unassigned': 'unassigned',
  'turns.captured': 'captured conversation turns',
};

const ORIGINS = { ui: null, api: 'API', mcp: 'agent', cli: 'CLI' } as const;

function detail(activity: Activity): string | null {
  const { data } = activity;
  const todo = data.todo as { text?: string } | undefined;
  const asset = data.asset as { filename?: string } | undefined;
  if (todo?.text) return `“${todo.text}”`;
  if (asset?.filename) return asset.filename;
  if (typeof data.content === 'string') return data.content;
  const assignee = data.assignee as { name?: string } | undefined;
  if (assignee?.name) return assignee.name;
  if (typeof data.count === 'number') return `${data.count} ${data.count === 1 ? 'turn' : 'turns'}`;
  return null;
}

export function TaskActivity({ boardId, taskId }: { boardId: string; taskId: string }) {
  const activities = useTaskActivities(boardId, taskId);
  const items = activities.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <section aria-labelledby="activity-heading" className="space-y-3">
      <h2 id="activity-heading" className="font-semibold">
        Activity
      </h2>
      {activities.isPending && <Loading label="Loading activity…" />}
      {activities.isError && <ErrorState error={activities.error} onRetry={() => activities.refetch()} />}
      {activities.isSuccess && items.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing has happened yet.</p>
      )}
      <ol className="space-y-1.5 text-sm">
        {items.map((activity) => {
          const origin = ORIGINS[activity.origin];
          const what = detail(activity);
          return (
            <li key={activity.id} className="flex flex-wrap items-baseline gap-x-1.5">
              <span className="font-medium">{activity.actor.name}</span>
              <span>{VERBS[activity.type] ?? activity.type}</span>
              {what && <span className="min-w-0 truncate text-zinc-700 dark:text-zinc-300">{what}</span>}
              {origin && <Badge tone="accent">{origin}</Badge>}
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                <Time iso={activity.createdAt} />
              </span>
            </li>
          );
        })}
      </ol>
      {activities.hasNextPage && (
        <Button onClick={() => activities.fetchNextPage()} busy={activities.isFetchingNextPage}>
          Show older activity
        </Button>
      )}
    </section>
  );
}
