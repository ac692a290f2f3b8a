import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agent as AgentSchema, DeactivatedAgent } from '../../../src/schemas/agents.js';
import { api } from './client';
import { type Access, type ApiKey, keyKeys, type NewApiKey } from './keys';
import { webhookKeys } from './webhooks';

export type Agent = Static<typeof AgentSchema>;

export const agentKeys = {
  all: () => ['agents'] as const,
  list: () => ['agents', 'list'] as const,
  /** Under the API keys' key, so the key hooks' invalidation (reveal, revoke) refreshes it too. */
  keys: (agentId: string) => [...keyKeys.list(), 'agent', agentId] as const,
};

/** Every agent, deactivated ones included (owners and admins only: members get 403). */
export function useAgents(enabled = true) {
  return useQuery({ queryKey: agentKeys.list(), queryFn: () => api.get<Agent[]>('/agents'), enabled });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description?: string }) => api.post<Agent>('/agents', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.list() }),
  });
}

export function useUpdateAgent(agent: Agent) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; description?: string }) =>
      api.patch<Agent>(`/agents/${agent.id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.list() }),
  });
}

/** Deactivating revokes the agent's keys (and so their webhooks). */
export function useDeactivateAgent(agent: Agent) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Static<typeof DeactivatedAgent>>(`/agents/${agent.id}/deactivate`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: agentKeys.all() });
      void queryClient.invalidateQueries({ queryKey: keyKeys.list() }); // its keys too
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all() });
    },
  });
}

/** The agent's unrevoked keys (reveal and revoke use the API key hooks in ./keys). */
export function useAgentKeys(agentId: string, enabled = true) {
  return useQuery({
    queryKey: agentKeys.keys(agentId),
    queryFn: () => api.get<ApiKey[]>(`/agents/${agentId}/keys`),
    enabled,
  });
}

export function useCreateAgentKey(agent: Agent) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string } & Access) => api.post<NewApiKey>(`/agents/${agent.id}/keys`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list() }), // the agent's keys too
  });
}
