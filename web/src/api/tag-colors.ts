import type { Static } from '@sinclair/typebox';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardDetail } from '../../../src/schemas/boards.js';
import type { TagColorChoice as TagColorChoiceSchema } from '../../../src/schemas/tag-colors.js';
import { tagColorsAfter } from '../live/apply-event';
import type { TagColorEntry } from './board-view';
import { type BoardView, boardKeys } from './boards';
import { api } from './client';

/** What `PUT /boards/:b/tag-colors` answers: the colour the tag shows now, and whether it was chosen. */
export type TagColorChoice = Static<typeof TagColorChoiceSchema>;

type Detail = Static<typeof BoardDetail>;

/**
 * Writes a board's chosen tag colours into its cached board views and its detail (the task page's),
 * from a change made here or a live event; `update` answers null to leave a cache as it is.
 */
export function writeTagColors(
  queryClient: QueryClient,
  boardId: string,
  update: (colors: readonly TagColorEntry[]) => TagColorEntry[] | null,
  which: { views: boolean } = { views: true },
): void {
  if (which.views) {
    for (const [key, data] of queryClient.getQueriesData<BoardView>({ queryKey: boardKeys.board(boardId) })) {
      const next = data && update(data.tagColors ?? []);
      if (data && next) queryClient.setQueryData(key, { ...data, tagColors: next });
    }
  }
  const detail = queryClient.getQueryData<Detail>(boardKeys.detail(boardId));
  const next = detail && update(detail.tagColors ?? []);
  if (detail && next) {
    queryClient.setQueryData(boardKeys.detail(boardId), {
      ...detail,
      tagColors: next as Detail['tagColors'],
    });
  }
}

/**
 * Chooses a tag's colour on the board (`null`: back to the colour derived from its name). Open boards,
 * this tab's included, take the change from the live stream; the caches are written at once as well,
 * so the chip changes before the event arrives.
 */
export function useSetTagColor(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { tag: string; color: string | null }) =>
      api.put<TagColorChoice>(`/boards/${boardId}/tag-colors`, input),
    onSuccess: ({ tag, color, chosen }) => {
      const data = { tag, color: chosen ? color : null };
      writeTagColors(queryClient, boardId, (colors) => tagColorsAfter(colors, data));
    },
  });
}
