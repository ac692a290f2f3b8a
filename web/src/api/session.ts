import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SetupState, SignInOptions as SignInOptionsSchema } from '../../../src/schemas/people.js';
import { ApiError, api, UI_API } from './client';
import type { User } from './people';

/** Name, email and a new password: the owner's set-up and an accepted invite. */
export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

export const sessionKeys = {
  session: () => ['session'] as const,
  setup: () => ['setup'] as const,
  signInOptions: () => ['sign-in-options'] as const,
};

/** How people sign in here: single sign-on offered, and whether everyone (or only owners) may use a password. */
export type SignInOptions = Static<typeof SignInOptionsSchema>;

export function useSignInOptions() {
  return useQuery({
    queryKey: sessionKeys.signInOptions(),
    queryFn: () => api.get<SignInOptions>('/sign-in-options'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Where "Sign in with SSO" goes: a full page load, since the identity provider's page comes next. */
export function ssoStartUrl(options: { invite?: string; next?: string } = {}): string {
  const query = new URLSearchParams();
  if (options.invite) query.set('invite', options.invite);
  if (options.next && options.next !== '/') query.set('next', options.next);
  const search = query.toString();
  return `${UI_API}/oidc/start${search ? `?${search}` : ''}`;
}

/** The signed-in person, or null when signed out (only `unauthenticated` means signed out). */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.session(),
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
    queryKey: sessionKeys.setup(),
    queryFn: () => api.get<Static<typeof SetupState>>('/setup'),
    enabled,
  });
}

/** After sign-in, setup or an accepted invite: the session is this person; everything else is refetched. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.session()[0] });
    queryClient.setQueryData(sessionKeys.session(), user);
  };
}

export function isAdmin(user: User | null | undefined): boolean {
  return user?.role === 'owner' || user?.role === 'admin';
}

export function useSignIn() {
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => api.post<User>('/session', body),
  });
}

/** Signs out: the cache is emptied and the session is known to be none. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/session'),
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.session(), null);
    },
  });
}

/** The first owner's account. */
export function useSetUp() {
  return useMutation({ mutationFn: (body: NewAccount) => api.post<User>('/setup', body) });
}

export function useRenameMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.patch<User>('/me', { name }),
    onSuccess: (updated) => queryClient.setQueryData(sessionKeys.session(), updated),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      api.post<void>('/me/password', body),
  });
}
