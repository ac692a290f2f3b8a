import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from './client';
import type { User } from './types';

export const SESSION_KEY = ['session'] as const;

/** The signed-in person, or null when signed out (only `unauthenticated` means signed out). */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<User | null> => {
      try {
        return await api.get<User>('/session');
      } catch (error) {
        if (error instanceof ApiError && error.code === 'unauthenticated') return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function useSetupNeeded(enabled: boolean) {
  return useQuery({
    queryKey: ['setup'],
    queryFn: () => api.get<{ needed: boolean }>('/setup'),
    enabled,
  });
}

/** After sign-in, setup or an accepted invite: the session is this person; everything else is refetched. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    queryClient.setQueryData(SESSION_KEY, user);
  };
}

export function isAdmin(user: User | null | undefined): boolean {
  return user?.role === 'owner' || user?.role === 'admin';
}
