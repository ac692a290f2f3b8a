import type { Static } from '@sinclair/typebox';
import { useInfiniteQuery } from '@tanstack/react-query';
import type {
  ActivityPage as ActivityPageSchema,
  Activity as ActivitySchema,
} from '../../../src/schemas/board-view.js';
import { getEnvelope } from './client';
import { taskKeys, taskPath } from './tasks';

/** One entry of a board's or task's history (docs/ui-api.md, "Activity"). */
export type Activity = Static<typeof ActivitySchema>;
type ActivityPage = Static<typeof ActivityPageSchema>;

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
