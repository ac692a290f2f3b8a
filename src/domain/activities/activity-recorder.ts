import {
  type InsertedActivity,
  insertActivitiesAtCommit,
  insertActivity,
} from '../../db/repositories/activities.js';
import type { NewActivityRow } from '../../db/schema.js';
import type { Tx } from '../../db/transaction.js';
import { type Clock, isoNow } from '../../lib/time.js';
import { type Actor, actorId, firesWebhooks } from '../actor.js';
import type { ActivityConsumer, ActivityInput, RecordedActivity } from './activity-types.js';
import type { ChangeFeed } from './change-feed.js';

/** What services record changes with (`deps.activities`). */
export interface ActivityRecorder {
  record(tx: Tx, actor: Actor, input: ActivityInput): Promise<RecordedActivity>;
}

type ActivityRow = Omit<NewActivityRow, 'id'>;

/**
 * Writes one activity row per change in the mutation's own transaction and hands it to each consumer
 * (webhook fan-out, tests) in the same transaction: nothing is recorded or fired for a rolled-back
 * change, nothing is lost for a committed one. Then the change feed says which boards changed.
 *
 * On SQLite the row is inserted at once and the feed publishes in-process after commit. On PostgreSQL
 * the transaction's rows are inserted by the statement that travels with COMMIT (Tx.atCommit), so
 * recording costs no round trip, and ids are drawn at commit, so they follow the commit order more
 * closely; the feed then notifies every instance.
 */
export class DatabaseActivityRecorder implements ActivityRecorder {
  private readonly consumers: ActivityConsumer[];

  constructor(
    private readonly clock: Clock,
    consumers: readonly ActivityConsumer[] = [],
    private readonly changeFeed: ChangeFeed | null = null,
  ) {
    this.consumers = [...consumers];
  }

  /** Adds a consumer (the runtime adds webhook fan-out; tests add recorders). */
  addConsumer(consumer: ActivityConsumer): void {
    this.consumers.push(consumer);
  }

  async record(tx: Tx, actor: Actor, input: ActivityInput): Promise<RecordedActivity> {
    const createdAt = isoNow(this.clock);
    const actorIdValue = actorId(actor);
    const taskId = input.taskId ?? null;
    const row: ActivityRow = {
      board_id: input.boardId,
      task_id: taskId,
      type: input.type,
      actor_kind: actor.kind,
      actor_id: actorIdValue,
      actor_name: actor.name,
      origin: actor.origin,
      data: JSON.stringify(input.data),
      created_at: createdAt,
    };
    if (tx.dialect === 'postgres') this.insertAtCommit(tx, row);
    else this.changeFeed?.noteRecorded(tx, input.boardId, await insertActivity(tx.db, row));
    const activity: RecordedActivity = {
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

  /** PostgreSQL: the row waits, with the transaction's others, for the statement sent with COMMIT. */
  private insertAtCommit(tx: Tx, row: ActivityRow): void {
    const rows = tx.local(this, () => {
      const waiting: ActivityRow[] = [];
      // Registered as before-commit work so that every activity of the transaction is in the statement.
      tx.beforeCommit('activities', async () =>
        tx.atCommit(insertActivitiesAtCommit(waiting), (inserted) =>
          this.changeFeed?.committedOnPostgres(inserted as InsertedActivity[]),
        ),
      );
      return waiting;
    });
    rows.push(row);
  }
}
