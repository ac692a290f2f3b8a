import { type Actor, recordsEvents } from '../../src/domain/actor.js';
import type { DomainEvent, EventRecorder } from '../../src/domain/events.js';
import type { Tx } from '../../src/domain/transaction.js';

/**
 * An EventRecorder for tests: keeps what the services record (for the actors whose events the outbox
 * records), and can be told to fail, to show that a mutation and its event commit or roll back together.
 */
export class RecordingEvents implements EventRecorder {
  readonly events: DomainEvent[] = [];
  failNext = false;

  async record(tx: Tx, actor: Actor, event: DomainEvent): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('event store unavailable');
    }
    if (!recordsEvents(actor)) return;
    // Recorded only once the mutation commits, as the outbox's rows are.
    tx.afterCommit(() => this.events.push(event));
  }

  /** The events recorded since the last call. */
  take(): DomainEvent[] {
    return this.events.splice(0, this.events.length);
  }
}
