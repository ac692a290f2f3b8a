import type { Static } from '@sinclair/typebox';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { TurnPage, Turn as TurnSchema, TurnSource } from '../../../src/schemas/turns.js';
import { getEnvelope } from './client';
import { taskKeys, taskPath } from './tasks';

export type Turn = Static<typeof TurnSchema>;
export type TurnSourceName = Static<typeof TurnSource>;

/** The agents' captured turns on a task, one source at a time, 50 a page. */
export function useTurns(boardId: string, taskId: string, source: TurnSourceName) {
  return useInfiniteQuery({
    queryKey: taskKeys.turns(boardId, taskId, source),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ source, limit: '50' });
      if (pageParam) query.set('cursor', pageParam);
      return getEnvelope<Static<typeof TurnPage>>(`${taskPath(boardId, taskId)}/turns?${query}`);
    },
    getNextPageParam: (last) => last.cursor,
  });
}
