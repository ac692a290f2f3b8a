import type {
  ActivityConsumer,
  ActivityType,
  RecordedActivity,
} from '../../src/domain/activities/activity-types.js';
import type { Tx } from '../../src/domain/transaction.js';

/** What a service recorded, in the shape the webhook payload is built from. */
export interface RecordedEvent {
  type: ActivityType;
  boardId: string;
  data: Record<string, unknown>;
}

/**
 * An activity consumer for tests: keeps the activities that fire webhooks (as the outbox would queue
 * them) once their transaction commits, and can be told to fail, to show that a mutation and its
 * activity commit or roll back together.
 */
export class RecordingEvents implements ActivityConsumer {
  readonly events: RecordedEvent[] = [];
  failNext = false;

  async onRecorded(tx: Tx, activity: RecordedActivity): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('event store unavailable');
    }
    if (!activity.firesWebhooks) return;
    const event = structuredClone({ type: activity.type, boardId: activity.boardId, data: activity.data });
    // Recorded only once the mutation commits, as the outbox's rows are.
    tx.afterCommit(() => this.events.push(event));
  }

  /** The events recorded since the last call. */
  take(): RecordedEvent[] {
    return this.events.splice(0, this.events.length);
  }
}
