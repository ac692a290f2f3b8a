import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedInvite,
  InviteLookup,
  Invite as InviteSchema,
  PersonRef as PersonRefSchema,
  User as UserSchema,
} from '../../../src/schemas/people.js';
import { api } from './client';
import { keyKeys } from './keys';
import { type NewAccount, sessionKeys } from './session';
import { webhookKeys } from './webhooks';

/* People and invites are the UI API's own (docs/ui-api.md, "People"); src/schemas/people.ts. */
export type User = Static<typeof UserSchema>;
export type Role = User['role'];
export type PersonRef = Static<typeof PersonRefSchema>;
export type Invite = Static<typeof InviteSchema>;
/** The answer that created an invite: with its link, shown only then. */
export type NewInvite = Static<typeof CreatedInvite>;

export const peopleKeys = {
  people: () => ['people'] as const,
  invites: () => ['invites'] as const,
  invite: (token: string) => ['invite', token] as const,
};

export function usePeople() {
  return useQuery({ queryKey: peopleKeys.people(), queryFn: () => api.get<User[]>('/people') });
}

export function useChangeRole(me: User) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ person, role }: { person: User; role: Role }) =>
      api.patch<User>(`/people/${person.id}`, { role }),
    onSuccess: (updated) => {
      void queryClient.invalidateQueries({ queryKey: peopleKeys.people() });
      if (updated.id === me.id) void queryClient.invalidateQueries({ queryKey: sessionKeys.session() });
    },
  });
}

/** Deactivating someone revokes their keys, and the webhooks of those keys go with them. */
export function useDeactivate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (person: User) => api.post<User>(`/people/${person.id}/deactivate`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: peopleKeys.people() });
      void queryClient.invalidateQueries({ queryKey: keyKeys.list() });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all() });
    },
  });
}

export function useInvites() {
  return useQuery({ queryKey: peopleKeys.invites(), queryFn: () => api.get<Invite[]>('/invites') });
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: Role) => api.post<NewInvite>('/invites', { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.invites() }),
  });
}

export function useWithdrawInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invite: Invite) => api.delete(`/invites/${invite.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.invites() }),
  });
}

/** An invite link as its page reads it (no session yet). */
export function useInvite(token: string) {
  return useQuery({
    queryKey: peopleKeys.invite(token),
    queryFn: () => api.get<Static<typeof InviteLookup>>(`/invites/${encodeURIComponent(token)}`),
    retry: false,
  });
}

export function useAcceptInvite(token: string) {
  return useMutation({
    mutationFn: (body: NewAccount) => api.post<User>(`/invites/${encodeURIComponent(token)}/accept`, body),
  });
}
