import type { DeliveryStatus, Webhook } from '../../api/webhooks';
import { Badge } from '../../components/ui';

const TONES = { delivered: 'green', pending: 'amber', failed: 'red' } as const;
const LABELS = { delivered: 'Delivered', pending: 'Pending', failed: 'Failed' } as const;

export function DeliveryBadge({ status }: { status: DeliveryStatus }) {
  return <Badge tone={TONES[status]}>{LABELS[status]}</Badge>;
}

export function WebhookState({ webhook }: { webhook: Pick<Webhook, 'active'> }) {
  return webhook.active ? <Badge tone="green">Active</Badge> : <Badge tone="amber">Paused</Badge>;
}

export function eventsSummary(events: string[]): string {
  if (events.length === 1 && events[0] === '*') return 'All events';
  return events.length <= 3 ? events.join(', ') : `${events.length} events`;
}
