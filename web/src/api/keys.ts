import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Permission as PermissionSchema } from '../../../src/schemas/boards.js';
import { api } from './client';
import type { PersonRef } from './people';
import { webhookKeys } from './webhooks';

export type Permission = Static<typeof PermissionSchema>;

export interface Grant {
  boardId: string;
  boardName?: string;
  permission: Permission;
}

/** What an API key may reach: every board (edit), or the boards granted. */
export interface Access {
  allBoards: boolean;
  grants: Grant[];
}

/** An API key as Settings › API Keys lists it (the UI API's own shape: no schema in src/schemas). */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  owner: PersonRef | null;
  /** The agent the key acts as, if it belongs to one. */
  agent: PersonRef | null;
  createdAt: string;
  lastUsedAt: string | null;
  allBoards: boolean;
  grants: Grant[];
  webhookCount: number;
  reveals: { at: string; user: PersonRef }[];
}

export const keyKeys = {
  list: () => ['keys'] as const,
};

export function useKeys(enabled = true) {
  return useQuery({ queryKey: keyKeys.list(), queryFn: () => api.get<ApiKey[]>('/keys'), enabled });
}

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string } & Access) => api.post<ApiKey & { key: string }>('/keys', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list() }),
  });
}

/** Shows the key again; the server records the reveal (so the list is read again). */
export function useRevealKey(apiKey: ApiKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api.post<{ id: string; key: string }>(`/keys/${apiKey.id}/reveal`, { password }),
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
