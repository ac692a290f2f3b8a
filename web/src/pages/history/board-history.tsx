import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useBoardActivities } from '../../api/activities';
import { useBoardDetail, useBoardView } from '../../api/boards';
import { ActivityList } from '../../components/activity-list';
import { Button, ErrorState, Loading } from '../../components/ui';

/** Everything that happened on a board, newest first: who, what, on which task, through what, when. */
export function BoardHistoryPage() {
  const { boardId = '' } = useParams();
  const board = useBoardDetail(boardId);
  const activities = useBoardActivities(boardId);
  // Titles of the board's tasks (archived ones too): a history row carries only the task's id.
  const view = useBoardView(boardId, true);
  const titles = new Map((view.data?.tasks ?? []).map((task) => [task.id, task.title]));
  const items = activities.data?.pages.flatMap((page) => page.data) ?? [];
  const name = board.data?.name;
  useEffect(() => {
    document.title = name ? `History · ${name} · Laneboard` : 'History · Laneboard';
  }, [name]);
  return (
    <section aria-labelledby="history-heading" className="max-w-3xl space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/" className="text-sm text-zinc-700 hover:underline dark:text-zinc-300">
          Boards
        </Link>
        <span aria-hidden className="text-zinc-400">
          /
        </span>
        <Link to={`/boards/${boardId}`} className="text-sm text-zinc-700 hover:underline dark:text-zinc-300">
          {name ?? 'Board'}
        </Link>
        <span aria-hidden className="text-zinc-400">
          /
        </span>
        <h1 id="history-heading" className="text-xl font-semibold">
          History
        </h1>
      </div>
      {activities.isPending && <Loading label="Loading history…" />}
      {activities.isError && <ErrorState error={activities.error} onRetry={() => activities.refetch()} />}
      {activities.isSuccess && items.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing has happened on this board yet.</p>
      )}
      <ActivityList
        items={items}
        subject={(activity) =>
          activity.taskId && (
            <Link
              className="text-accent-700 hover:underline dark:text-accent-400"
              to={`/boards/${boardId}/tasks/${activity.taskId}`}
            >
              {titles.get(activity.taskId) ??
                (typeof activity.data.title === 'string' ? activity.data.title : 'a task')}
            </Link>
          )
        }
      />
      {activities.hasNextPage && (
        <Button onClick={() => activities.fetchNextPage()} busy={activities.isFetchingNextPage}>
          Show older activity
        </Button>
      )}
    </section>
  );
}
export default BoardHistoryPage;
