import type { Static } from '@sinclair/typebox';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { SearchPage, SearchResult as SearchResultSchema } from '../../../src/schemas/search.js';
import { api, getEnvelope } from './client';
import type { TaskDetail } from './tasks';

/** One match: a task, or a comment, todo or agent turn of a task (`GET /api/ui/search`). */
export type SearchResult = Static<typeof SearchResultSchema>;
export type SearchKind = SearchResult['kind'];
type Page = Static<typeof SearchPage>;

export const SEARCH_KINDS: Array<[kind: SearchKind, label: string]> = [
  ['task', 'Task'],
  ['comment', 'Comment'],
  ['todo', 'Todo'],
  ['turn', 'Agent turn'],
];

/** What the results page searches for; every filter is optional. */
export interface SearchFilters {
  q: string;
  boardId?: string;
  kind?: SearchKind;
  /** A member id or `me`. */
  assignee?: string;
  includeArchived?: boolean;
}

/** The palette shows this many matches; the results page pages by the API's default. */
export const PALETTE_LIMIT = 8;
const PAGE_LIMIT = 20;

export const searchKeys = {
  all: () => ['search'] as const,
  palette: (q: string) => ['search', 'palette', q] as const,
  results: (filters: SearchFilters) => ['search', 'results', filters] as const,
};

function searchPath(filters: SearchFilters, limit: number, cursor?: string | null): string {
  const params = new URLSearchParams({ q: filters.q.trim(), limit: String(limit) });
  if (filters.boardId) params.set('boardId', filters.boardId);
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.assignee) params.set('assignee', filters.assignee);
  if (filters.includeArchived) params.set('includeArchived', 'true');
  if (cursor) params.set('cursor', cursor);
  return `/search?${params}`;
}

/**
 * The palette's matches for `q` (already debounced by the caller). A query typed further leaves this
 * one without observers and React Query aborts its request (the signal is passed on), so only the
 * latest pause's answer is waited for; the previous answer stays on screen meanwhile.
 */
export function usePaletteSearch(q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: searchKeys.palette(query),
    queryFn: ({ signal }) => getEnvelope<Page>(searchPath({ q: query }, PALETTE_LIMIT), signal),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** The results page: pages of 20, the next one read with the previous page's cursor ("Show more"). */
export function useSearchResults(filters: SearchFilters) {
  return useInfiniteQuery({
    queryKey: searchKeys.results(filters),
    queryFn: ({ pageParam, signal }) => getEnvelope<Page>(searchPath(filters, PAGE_LIMIT, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    enabled: filters.q.trim().length > 0,
  });
}

/** The palette's "New task": a title in a board's lane, from any page. */
export function useCreateTaskFromPalette() {
  return useMutation({
    mutationFn: ({ boardId, laneId, title }: { boardId: string; laneId: string; title: string }) =>
      api.post<TaskDetail>(`/boards/${boardId}/tasks`, { laneId, title }),
  });
}
