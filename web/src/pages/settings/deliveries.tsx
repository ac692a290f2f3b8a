import { RotateCcw } from 'lucide-react';
import { toast } from 'sonner';
import { type Delivery, useRedeliver } from '../../api/webhooks';
import { Button, EmptyState, errorMessage, Time } from '../../components/ui';
import { DeliveryBadge } from './webhook-status';

function AttemptList({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) {
    return <p className="text-xs text-zinc-600 dark:text-zinc-400">Not attempted yet.</p>;
  }
  return (
    <ol className="space-y-2">
      {delivery.attempts.map((attempt) => (
        <li key={attempt.number} className="rounded-md bg-zinc-50 p-2 text-xs dark:bg-zinc-900">
          <p className="flex flex-wrap gap-x-3">
            <span className="font-medium">Attempt {attempt.number}</span>
            <Time iso={attempt.at} />
            <span>{attempt.responseStatus === null ? 'no response' : `HTTP ${attempt.responseStatus}`}</span>
            {attempt.durationMs !== null && <span>{attempt.durationMs} ms</span>}
          </p>
          {attempt.error && <p className="mt-1 text-red-800 dark:text-red-300">{attempt.error}</p>}
          {attempt.responseBody && (
            <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap break-all font-mono text-zinc-700 dark:text-zinc-300">
              {attempt.responseBody}
            </pre>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Where the delivery's event happened: "Roadmap › abc123 Fix the login bug", or the lane, or nothing (a ping). */
function EventPlace({ delivery }: { delivery: Delivery }) {
  const { board, subject } = delivery;
  if (!board) return null;
  const boardName = board.name ?? 'a deleted board';
  let what: string | null = null;
  if (subject?.type === 'task') {
    what = subject.title === null ? 'a deleted task' : `${subject.shortId ?? ''} ${subject.title}`.trim();
  } else if (subject?.type === 'lane') {
    what = `lane ${subject.name ?? '(deleted)'}`;
  }
  return (
    <p className="min-w-0 text-sm text-zinc-800 dark:text-zinc-200">
      <span className="font-medium">{boardName}</span>
      {what && <span> › {what}</span>}
    </p>
  );
}

/** One tab of the delivery log: each delivery with its attempts, the next attempt, and Redeliver. */
export function DeliveryLog({ webhookId, deliveries }: { webhookId: string; deliveries: Delivery[] }) {
  const redeliver = useRedeliver(webhookId);
  if (deliveries.length === 0) return <EmptyState title="No deliveries here" />;
  return (
    <ul className="space-y-3">
      {deliveries.map((delivery) => (
        <li
          key={delivery.id}
          className="space-y-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
          aria-label={`${delivery.eventType} delivery${delivery.subject?.type === 'task' && delivery.subject.title ? ` for ${delivery.subject.title}` : ''}`}
        >
          <div className="flex flex-wrap items-center gap-2">
            <DeliveryBadge status={delivery.status} />
            <code className="text-sm">{delivery.eventType}</code>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              <Time iso={delivery.createdAt} /> · {delivery.id}
              {delivery.repeats && <> · redelivery of {delivery.repeats}</>}
            </span>
            <Button
              variant="ghost"
              className="ml-auto"
              busy={redeliver.isPending && redeliver.variables === delivery.id}
              onClick={() =>
                redeliver.mutate(delivery.id, {
                  onSuccess: () => toast.success('Queued for delivery again'),
                  onError: (error) => toast.error(errorMessage(error)),
                })
              }
              aria-label={`Redeliver ${delivery.eventType} (${delivery.id})`}
            >
              <RotateCcw aria-hidden className="size-4" /> Redeliver
            </Button>
          </div>
          <EventPlace delivery={delivery} />
          {delivery.nextAttemptAt && (
            <p className="text-xs text-zinc-700 dark:text-zinc-300">
              Next attempt <Time iso={delivery.nextAttemptAt} />
            </p>
          )}
          <AttemptList delivery={delivery} />
        </li>
      ))}
    </ul>
  );
}
