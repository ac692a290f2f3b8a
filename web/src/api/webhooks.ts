import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConsoleDelivery,
  ConsoleWebhookDetail,
  ConsoleWebhook as ConsoleWebhookSchema,
  CreatedConsoleWebhook,
  DeliveryAttempt,
  QueuedDelivery,
} from '../../../src/schemas/settings.js';
import type { RotatedSecret } from '../../../src/schemas/webhooks.js';
import { api } from './client';
import { keyKeys } from './keys';

/** A webhook as Settings › Webhooks shows it: the external API's webhook, with its key and last delivery. */
export type Webhook = Static<typeof ConsoleWebhookSchema>;
/** A delivery with its attempts, as the UI API sends it (camelCase, unlike the external API's). */
export type Delivery = Static<typeof ConsoleDelivery>;
export type DeliveryStatus = Delivery['status'];
export type Attempt = Static<typeof DeliveryAttempt>;
export type WebhookDetail = Static<typeof ConsoleWebhookDetail>;
type Queued = Static<typeof QueuedDelivery>;

export const webhookKeys = {
  all: () => ['webhooks'] as const,
  detail: (webhookId: string) => ['webhooks', webhookId] as const,
  deliveries: (webhookId: string, status: DeliveryStatus) => ['webhooks', webhookId, status] as const,
  eventTypes: () => ['event-types'] as const,
};

/** Deliveries change on their own (retries, the dispatcher): an open log refreshes itself. */
const DELIVERY_REFRESH_MS = 3000;

export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.all(), queryFn: () => api.get<Webhook[]>('/webhooks') });
}

export function useWebhook(webhookId: string) {
  return useQuery({
    queryKey: webhookKeys.detail(webhookId),
    queryFn: () => api.get<WebhookDetail>(`/webhooks/${webhookId}`),
  });
}

export function useDeliveries(webhookId: string, status: DeliveryStatus) {
  return useQuery({
    queryKey: webhookKeys.deliveries(webhookId, status),
    queryFn: () => api.get<WebhookDetail>(`/webhooks/${webhookId}?status=${status}`),
    refetchInterval: DELIVERY_REFRESH_MS,
  });
}

/** The event types a webhook may name. */
export function useEventTypes() {
  return useQuery({ queryKey: webhookKeys.eventTypes(), queryFn: () => api.get<string[]>('/event-types') });
}

/** A new webhook counts on its key: the key list is read again too. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; events: string[]; apiKeyId: string }) =>
      api.post<Static<typeof CreatedConsoleWebhook>>('/webhooks', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all() });
      void queryClient.invalidateQueries({ queryKey: keyKeys.list() });
    },
  });
}

export function useSetWebhookActive(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (active: boolean) => api.patch<Webhook>(`/webhooks/${webhookId}`, { active }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all() }),
  });
}

export function usePingWebhook(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Queued>(`/webhooks/${webhookId}/ping`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all() }),
  });
}

export function useRotateSecret(webhookId: string) {
  return useMutation({
    mutationFn: () => api.post<Static<typeof RotatedSecret>['data']>(`/webhooks/${webhookId}/rotate-secret`),
  });
}

export function useDeleteWebhook(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/webhooks/${webhookId}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: webhookKeys.detail(webhookId) });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all() });
      void queryClient.invalidateQueries({ queryKey: keyKeys.list() });
    },
  });
}

export function useRedeliver(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api.post<Queued>(`/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all() }),
  });
}
