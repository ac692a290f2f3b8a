import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useWebhooks } from '../../api/webhooks';
import { Button, EmptyState, ErrorState, Loading, PageHeader, Time } from '../../components/ui';
import { CreateWebhookDialog } from './webhook-create';
import { DeliveryBadge, eventsSummary, WebhookState } from './webhook-status';

export default function WebhooksPage() {
  const webhooks = useWebhooks();
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    document.title = 'Webhooks · Settings · Laneboard';
  }, []);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed POSTs to your services when boards change through the external API or MCP."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus aria-hidden className="size-4" /> Create webhook
          </Button>
        }
      />
      {webhooks.isPending && <Loading label="Loading webhooks…" />}
      {webhooks.isError && <ErrorState error={webhooks.error} onRetry={() => webhooks.refetch()} />}
      {webhooks.data?.length === 0 && (
        <EmptyState title="No webhooks yet">
          Create one to have Laneboard notify a service of changes.
        </EmptyState>
      )}
      {webhooks.data && webhooks.data.length > 0 && (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {webhooks.data.map((webhook) => (
            <li key={webhook.id} className="space-y-1 p-4">
              <div className="flex flex-wrap items-center gap-2">
                <Link
                  to={`/settings/webhooks/${webhook.id}`}
                  className="min-w-0 font-mono text-sm break-all underline-offset-2 hover:underline"
                >
                  {webhook.url}
                </Link>
                <WebhookState webhook={webhook} />
              </div>
              {!webhook.active && (
                <p className="text-xs text-amber-900 dark:text-amber-200">
                  Paused: events that happen now are dropped, not sent after Resume; pending deliveries wait.
                </p>
              )}
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {eventsSummary(webhook.events)} ·{' '}
                {webhook.apiKey ? `key ${webhook.apiKey.name} (${webhook.apiKey.prefix}…)` : 'key revoked'}
              </p>
              <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                Last delivery:{' '}
                {webhook.lastDelivery ? (
                  <>
                    <DeliveryBadge status={webhook.lastDelivery.status} />
                    <code>{webhook.lastDelivery.eventType}</code>
                    {webhook.lastDelivery.responseStatus !== null && (
                      <span>HTTP {webhook.lastDelivery.responseStatus}</span>
                    )}
                    <Time iso={webhook.lastDelivery.createdAt} />
                  </>
                ) : (
                  'none yet'
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      <CreateWebhookDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
