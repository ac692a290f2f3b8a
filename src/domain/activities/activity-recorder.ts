import { type InsertedActivity, writeActivity } from '../../db/repositories/activities.js';
import type { Tx } from '../../db/transaction.js';
import { type Clock, isoNow } from '../../lib/time.js';
import { type Actor, attributedActor, firesWebhooks, webhookActor } from '../actor.js';
import type {
  ActivityConsumer,
  ActivityInput,
  CommittedActivity,
  RecordedActivity,
} from './activity-types.js';
import { UNDELIVERED_TYPES } from './activity-types.js';

/** What services record changes with (`deps.activities`). */
export interface ActivityRecorder {
  record(tx: Tx, actor: Actor, input: ActivityInput): Promise<RecordedActivity>;
}

/**
 * Writes one activity row per change in the mutation's own transaction and hands it to each consumer
 * (webhook fan-out, tests) in the same transaction: nothing is recorded or fired for a rolled-back
 * change, nothing is lost for a committed one. Once the transaction has committed, consumers that
 * follow commits (the change feed) hear which ids it wrote. How the row is written on each database is
 * the repository's business (`writeActivity`).
 */
export class DatabaseActivityRecorder implements ActivityRecorder {
  private readonly consumers: ActivityConsumer[] = [];
  private readonly recordedBy: ActivityConsumer[] = [];
  private readonly committedBy: ActivityConsumer[] = [];

  constructor(
    private readonly clock: Clock,
    consumers: readonly ActivityConsumer[] = [],
  ) {
    for (const consumer of consumers) this.addConsumer(consumer);
  }

  /** Adds a consumer (the runtime adds webhook fan-out and the change feed; tests add recorders). */
  addConsumer(consumer: ActivityConsumer): void {
    this.consumers.push(consumer);
    if (consumer.onRecorded) this.recordedBy.push(consumer);
    if (consumer.onCommitted) this.committedBy.push(consumer);
  }

  async record(tx: Tx, actor: Actor, input: ActivityInput): Promise<RecordedActivity> {
    const createdAt = isoNow(this.clock);
    const attributed = attributedActor(actor);
    const taskId = input.taskId ?? null;
    const delivered = !UNDELIVERED_TYPES.has(input.type);
    await writeActivity(
      tx,
      {
        board_id: input.boardId,
        task_id: taskId,
        type: input.type,
        actor_kind: attributed.kind,
        actor_id: attributed.id,
        actor_name: attributed.name,
        origin: actor.origin,
        data: JSON.stringify(input.data),
        created_at: createdAt,
      },
      this.committed,
    );
    const activity: RecordedActivity = {
      type: input.type,
      boardId: input.boardId,
      taskId,
      actor: attributed,
      origin: actor.origin,
      data: input.data,
      createdAt,
      firesWebhooks: delivered && firesWebhooks(actor),
      webhookActor: delivered ? webhookActor(actor) : null,
      ...(input.mentionable === undefined ? {} : { mentionable: input.mentionable }),
    };
    for (const consumer of this.recordedBy) await consumer.onRecorded?.(tx, activity);
    return activity;
  }

  /** Called once per committed transaction with the activity rows it wrote. */
  private readonly committed = (rows: readonly InsertedActivity[]): void => {
    if (this.committedBy.length === 0 || rows.length === 0) return;
    const committed: CommittedActivity[] = rows.map((row) => ({ id: Number(row.id), boardId: row.board_id }));
    for (const consumer of this.committedBy) consumer.onCommitted?.(committed);
  };
}
