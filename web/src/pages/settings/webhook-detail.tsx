import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { api } from '../../api/client';
import type { Delivery, DeliveryStatus, Webhook } from '../../api/types';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import { Button, ErrorState, errorMessage, FormError, Loading, PageHeader, Time } from '../../components/ui';
import { DeliveryLog } from './deliveries';
import { eventsSummary, WebhookState } from './webhook-status';

type Detail = Webhook & { deliveries: Delivery[] };
const TABS: { status: DeliveryStatus; label: string }[] = [
  { status: 'delivered', label: 'Delivered' },
  { status: 'pending', label: 'Pending' },
  { status: 'failed', label: 'Failed' },
];
/** Deliveries change on their own (retries, the dispatcher): the open log refreshes itself. */
const REFRESH_MS = 3000;

function DeliveriesTab({ webhookId, status }: { webhookId: string; status: DeliveryStatus }) {
  const log = useQuery({
    queryKey: ['webhooks', webhookId, status],
    queryFn: () => api.get<Detail>(`/webhooks/${webhookId}?status=${status}`),
    refetchInterval: REFRESH_MS,
  });
  if (log.isPending) return <Loading label="Loading deliveries…" />;
  if (log.isError) return <ErrorState error={log.error} onRetry={() => log.refetch()} />;
  return <DeliveryLog webhookId={webhookId} deliveries={log.data.deliveries} />;
}

export default function WebhookDetailPage() {
  const { webhookId = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [tab, setTab] = useState<DeliveryStatus>('delivered');
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const webhook = useQuery({
    queryKey: ['webhooks', webhookId],
    queryFn: () => api.get<Detail>(`/webhooks/${webhookId}`),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const toggle = useMutation({
    mutationFn: (active: boolean) => api.patch<Webhook>(`/webhooks/${webhookId}`, { active }),
    onSuccess: (updated) => {
      toast.success(updated.active ? 'Webhook resumed' : 'Webhook paused: new events are not queued');
      void refresh();
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const ping = useMutation({
    mutationFn: () => api.post<{ deliveryId: string }>(`/webhooks/${webhookId}/ping`),
    onSuccess: () => {
      toast.success('Ping queued');
      setTab('pending');
      void refresh();
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const rotate = useMutation({
    mutationFn: () => api.post<{ secret: string }>(`/webhooks/${webhookId}/rotate-secret`),
  });
  const remove = useMutation({
    mutationFn: () => api.delete(`/webhooks/${webhookId}`),
    onSuccess: () => {
      toast.success('Webhook deleted');
      queryClient.removeQueries({ queryKey: ['webhooks', webhookId] });
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      void queryClient.invalidateQueries({ queryKey: ['keys'] });
      navigate('/settings/webhooks');
    },
  });
  useEffect(() => {
    document.title = 'Webhook · Settings · Laneboard';
  }, []);
  if (webhook.isPending) return <Loading label="Loading webhook…" />;
  if (webhook.isError) return <ErrorState error={webhook.error} onRetry={() => webhook.refetch()} />;
  const hook = webhook.data;
  return (
    <>
      <Link
        to="/settings/webhooks"
        className="mb-3 inline-flex items-center gap-1 text-sm text-zinc-700 hover:underline dark:text-zinc-300"
      >
        <ArrowLeft aria-hidden className="size-4" /> Webhooks
      </Link>
      <PageHeader
        title="Webhook"
        description={<span className="font-mono break-all">{hook.url}</span>}
        actions={
          <>
            <Button busy={toggle.isPending} onClick={() => toggle.mutate(!hook.active)}>
              {hook.active ? 'Pause' : 'Resume'}
            </Button>
            <Button busy={ping.isPending} onClick={() => ping.mutate()}>
              Send ping
            </Button>
            <Button onClick={() => setConfirm('rotate')}>Rotate secret</Button>
            <Button variant="danger" onClick={() => setConfirm('delete')}>
              Delete
            </Button>
          </>
        }
      />
      <dl className="mb-6 grid gap-2 text-sm sm:grid-cols-2">
        <div className="flex items-center gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">State</dt>
          <dd>
            <WebhookState webhook={hook} />
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">Events</dt>
          <dd>{eventsSummary(hook.events)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">API key</dt>
          <dd>
            {hook.apiKey.name} <code className="text-xs">({hook.apiKey.prefix}…)</code>
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">Created</dt>
          <dd>
            <Time iso={hook.createdAt} />
          </dd>
        </div>
      </dl>
      <h2 className="mb-2 font-semibold">Deliveries</h2>
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as DeliveryStatus)}>
        <Tabs.List
          aria-label="Deliveries by status"
          className="mb-3 flex gap-1 border-b border-zinc-200 dark:border-zinc-800"
        >
          {TABS.map(({ status, label }) => (
            <Tabs.Trigger
              key={status}
              value={status}
              className="-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm text-zinc-700 data-[state=active]:border-accent-600 data-[state=active]:font-medium data-[state=active]:text-zinc-900 dark:text-zinc-300 dark:data-[state=active]:text-white"
            >
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map(({ status }) => (
          <Tabs.Content key={status} value={status}>
            <DeliveriesTab webhookId={webhookId} status={status} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Delete this webhook?"
        description="Its pending deliveries and its delivery history are deleted with it."
        confirmLabel="Delete webhook"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        error={remove.error ? <FormError error={remove.error} /> : null}
      />
      <ConfirmDialog
        open={confirm === 'rotate' && !rotate.data}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Rotate the signing secret?"
        description="The current secret stops signing at once: update your receiver with the new one."
        confirmLabel="Rotate secret"
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        error={rotate.error ? <FormError error={rotate.error} /> : null}
      />
      {rotate.data && (
        <Modal
          open
          onOpenChange={(open) => {
            if (!open) {
              rotate.reset();
              setConfirm(null);
            }
          }}
          title="Copy the new signing secret"
          description="It is shown only now."
        >
          <SecretValue label="Signing secret" value={rotate.data.secret} />
          <div className="mt-5 flex justify-end">
            <Button
              variant="primary"
              onClick={() => {
                rotate.reset();
                setConfirm(null);
              }}
            >
              Done
            </Button>
          </div>
        </Modal>
      )}
    </>
  );
}
