import { useTaskActivities } from '../../api/activities';
import { ActivityList } from '../../components/activity-list';
import { Button, ErrorState, Loading } from '../../components/ui';

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
      <ActivityList items={items} />
      {activities.hasNextPage && (
        <Button onClick={() => activities.fetchNextPage()} busy={activities.isFetchingNextPage}>
          Show older activity
        </Button>
      )}
    </section>
  );
}
