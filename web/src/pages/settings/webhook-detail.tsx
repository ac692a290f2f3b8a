import { ArrowLeft } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import {
  type DeliveryStatus,
  useDeleteWebhook,
  useDeliveries,
  usePingWebhook,
  useRotateSecret,
  useSetWebhookActive,
  useWebhook,
} from '../../api/webhooks';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import { Button, ErrorState, errorMessage, FormError, Loading, PageHeader, Time } from '../../components/ui';
import { DeliveryLog } from './deliveries';
import { eventsSummary, WebhookState } from './webhook-status';

const TABS: { status: DeliveryStatus; label: string }[] = [
  { status: 'delivered', label: 'Delivered' },
  { status: 'pending', label: 'Pending' },
  { status: 'failed', label: 'Failed' },
];

function DeliveriesTab({ webhookId, status }: { webhookId: string; status: DeliveryStatus }) {
  const log = useDeliveries(webhookId, status);
  if (log.isPending) return <Loading label="Loading deliveries…" />;
  if (log.isError) return <ErrorState error={log.error} onRetry={() => log.refetch()} />;
  return <DeliveryLog webhookId={webhookId} deliveries={log.data.deliveries} />;
}

export default function WebhookDetailPage() {
  const { webhookId = '' } = useParams();
  const navigate = useNavigate();
  const [tab, setTab] = useState<DeliveryStatus>('delivered');
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const webhook = useWebhook(webhookId);
  const toggle = useSetWebhookActive(webhookId);
  const ping = usePingWebhook(webhookId);
  const rotate = useRotateSecret(webhookId);
  const remove = useDeleteWebhook(webhookId);
  const onError = (error: unknown) => toast.error(errorMessage(error));
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
            <Button
              busy={toggle.isPending}
              onClick={() =>
                toggle.mutate(!hook.active, {
                  onSuccess: (updated) =>
                    toast.success(
                      updated.active
                        ? 'Webhook resumed'
                        : 'Webhook paused: events are dropped until you resume it',
                    ),
                  onError,
                })
              }
            >
              {hook.active ? 'Pause' : 'Resume'}
            </Button>
            <Button
              busy={ping.isPending}
              onClick={() =>
                ping.mutate(undefined, {
                  onSuccess: () => {
                    toast.success('Ping queued');
                    setTab('pending');
                  },
                  onError,
                })
              }
            >
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
            {hook.apiKey ? (
              <>
                {hook.apiKey.name} <code className="text-xs">({hook.apiKey.prefix}…)</code>
              </>
            ) : (
              'none (revoked)'
            )}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-zinc-600 dark:text-zinc-400">Created</dt>
          <dd>
            <Time iso={hook.createdAt} />
          </dd>
        </div>
      </dl>
      {!hook.active && (
        <p
          role="note"
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          This webhook is paused: events that happen while it is paused are dropped and are not sent later,
          even after you resume it. Deliveries already pending wait and are sent once it is resumed.
        </p>
      )}
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
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              toast.success('Webhook deleted');
              navigate('/settings/webhooks');
            },
          })
        }
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
