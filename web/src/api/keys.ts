import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Permission as PermissionSchema } from '../../../src/schemas/boards.js';
import type {
  ApiKey as ApiKeySchema,
  CreatedApiKey,
  KeyGrant,
  RevealedKey,
} from '../../../src/schemas/settings.js';
import { api } from './client';
import { webhookKeys } from './webhooks';

export type Permission = Static<typeof PermissionSchema>;

/** A board a key may reach; as sent, only the board and the permission (the name comes back). */
export type Grant = Pick<Static<typeof KeyGrant>, 'boardId' | 'permission'> & { boardName?: string };

/** What an API key may reach: every board (edit), or the boards granted. */
export interface Access {
  allBoards: boolean;
  grants: Grant[];
}

/** An API key as Settings › API Keys lists it. */
export type ApiKey = Static<typeof ApiKeySchema>;
/** The answer that created a key: the key itself, shown once. */
export type NewApiKey = Static<typeof CreatedApiKey>;

export const keyKeys = {
  list: () => ['keys'] as const,
};

export function useKeys(enabled = true) {
  return useQuery({ queryKey: keyKeys.list(), queryFn: () => api.get<ApiKey[]>('/keys'), enabled });
}

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string } & Access) => api.post<NewApiKey>('/keys', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list() }),
  });
}

/** Shows the key again; the server records the reveal (so the list is read again). */
export function useRevealKey(apiKey: ApiKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api.post<Static<typeof RevealedKey>>(`/keys/${apiKey.id}/reveal`, { password }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list() }),
  });
}

export function useSaveKeyAccess(apiKey: ApiKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (access: Access) =>
      api.put<ApiKey>(`/keys/${apiKey.id}/grants`, {
        allBoards: access.allBoards,
        grants: access.grants.map(({ boardId, permission }) => ({ boardId, permission })),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list() }),
  });
}

/** Revoking a key deletes its webhooks too. */
export function useRevokeKey(apiKey: ApiKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/keys/${apiKey.id}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keyKeys.list() });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all() });
    },
  });
}
