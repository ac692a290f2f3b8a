import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Asset as AssetSchema } from '../../../src/schemas/assets.js';
import { api, UI_API, upload } from './client';
import { taskKeys, taskPath } from './tasks';

export type Asset = Static<typeof AssetSchema>;

const assetsPath = (boardId: string, taskId: string) => `${taskPath(boardId, taskId)}/assets`;

/** Where the browser downloads a file (a plain link: the server sends it as an attachment). */
export const assetContentUrl = (boardId: string, taskId: string, assetId: string) =>
  `${UI_API}${assetsPath(boardId, taskId)}/${assetId}/content`;

export function useAssets(boardId: string, taskId: string) {
  return useQuery({
    queryKey: taskKeys.assets(boardId, taskId),
    queryFn: () => api.get<Asset[]>(assetsPath(boardId, taskId)),
  });
}

/** Uploads files one by one; answers, per file, the error of each that was refused. */
export function useUploadAssets(boardId: string, taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (files: File[]) => {
      const failures: Array<{ file: File; error: unknown }> = [];
      for (const file of files) {
        const form = new FormData();
        form.append('file', file, file.name);
        try {
          await upload<Asset>(assetsPath(boardId, taskId), form);
        } catch (error) {
          failures.push({ file, error });
        }
      }
      return failures;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.assets(boardId, taskId) }),
  });
}

export function useDeleteAsset(boardId: string, taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (asset: Asset) => api.delete(`${assetsPath(boardId, taskId)}/${asset.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.assets(boardId, taskId) }),
  });
}
