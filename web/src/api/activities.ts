import { useInfiniteQuery } from '@tanstack/react-query';
import { getEnvelope } from './client';
import { taskKeys, taskPath } from './tasks';

/**
 * One entry of a task's history (docs/ui-api.md, "Activity"). The UI API's own shape: no schema in
 * src/schemas describes it.
 */
export interface Activity {
  id: number;
  type: string;
  taskId: string | null;
  actor: { kind: 'user' | 'api_key' | 'agent' | 'system'; id: string | null; name: string };
  origin: 'ui' | 'api' | 'mcp' | 'cli';
  data: Record<string, unknown>;
  createdAt: string;
}

interface ActivityPage {
  data: Activity[];
  nextBefore: number | null;
}

const PAGE_SIZE = 20;

/** A task's activity, newest first, a page at a time. */
export function useTaskActivities(boardId: string, taskId: string) {
  return useInfiniteQuery({
    queryKey: taskKeys.activities(boardId, taskId),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) =>
      getEnvelope<ActivityPage>(
        `${taskPath(boardId, taskId)}/activities?limit=${PAGE_SIZE}${pageParam === null ? '' : `&before=${pageParam}`}`,
      ),
    getNextPageParam: (last) => last.nextBefore,
  });
}

/** The board's activity (every task and the board itself), newest first, a page at a time. */
export function useBoardActivities(boardId: string) {
  return useInfiniteQuery({
    queryKey: ['board-activities', boardId] as const,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) =>
      getEnvelope<ActivityPage>(
        `/boards/${encodeURIComponent(boardId)}/activities?limit=${PAGE_SIZE}${pageParam === null ? '' : `&before=${pageParam}`}`,
      ),
    getNextPageParam: (last) => last.nextBefore,
  });
}
