import { insertActivity } from '../../db/repositories/activities.js';
import type { Tx } from '../../db/transaction.js';
import { type Clock, isoNow } from '../../lib/time.js';
import { type Actor, actorId, firesWebhooks } from '../actor.js';
import type { ActivityConsumer, ActivityInput, RecordedActivity } from './activity-types.js';

/** What services record changes with (`deps.activities`). */
export interface ActivityRecorder {
  record(tx: Tx, actor: Actor, input: ActivityInput): Promise<RecordedActivity>;
}

/**
 * Writes one activity row per change in the mutation's own transaction, then hands it to each consumer
 * (webhook fan-out, change feed) in the same transaction: nothing is recorded or fired for a
 * rolled-back change, nothing is lost for a committed one.
 */
export class DatabaseActivityRecorder implements ActivityRecorder {
  private readonly consumers: ActivityConsumer[];

  constructor(
    private readonly clock: Clock,
    consumers: readonly ActivityConsumer[] = [],
  ) {
    this.consumers = [...consumers];
  }

  /** Adds a consumer (the runtime adds webhook fan-out and the change feed; tests add recorders). */
  addConsumer(consumer: ActivityConsumer): void {
    this.consumers.push(consumer);
  }

  async record(tx: Tx, actor: Actor, input: ActivityInput): Promise<RecordedActivity> {
    const createdAt = isoNow(this.clock);
    const actorIdValue = actorId(actor);
    const taskId = input.taskId ?? null;
    const id = await insertActivity(tx.db, {
      board_id: input.boardId,
      task_id: taskId,
      type: input.type,
      actor_kind: actor.kind,
      actor_id: actorIdValue,
      actor_name: actor.name,
      origin: actor.origin,
      data: JSON.stringify(input.data),
      created_at: createdAt,
    });
    const activity: RecordedActivity = {
      id,
      type: input.type,
      boardId: input.boardId,
      taskId,
      actor: { kind: actor.kind, id: actorIdValue, name: actor.name },
      origin: actor.origin,
      data: input.data,
      createdAt,
      firesWebhooks: firesWebhooks(actor),
    };
    for (const consumer of this.consumers) await consumer.onRecorded(tx, activity);
    return activity;
  }
}
