import type { Tx } from '../../db/transaction.js';
import { WEBHOOK_EVENT_TYPES, WILDCARD_ONLY_EVENT_TYPES } from '../../schemas/events.js';
import type { WebhookActor } from '../actor.js';

export { WEBHOOK_EVENT_TYPES };

/**
 * Every kind of change, in one list: the specification's 14 event types, then the asset and reaction
 * types of the contract (which webhooks receive only through `["*"]`), then the web UI's board rename
 * and tag colour choice (never delivered: only UI changes make them), and a batch of captured turns
 * (never delivered: turns fire no events; recorded so the board shows the agent at work, live). The
 * webhook lists live in the schemas, which the document and validation are built from.
 */
export const ACTIVITY_TYPES = [
  ...WEBHOOK_EVENT_TYPES,
  ...WILDCARD_ONLY_EVENT_TYPES,
  'board.updated',
  'tag.color_changed',
  'turns.captured',
] as const;

export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Activities that no webhook receives, whoever makes them (not even through `["*"]`). */
export const UNDELIVERED_TYPES: ReadonlySet<ActivityType> = new Set([
  'board.updated',
  'tag.color_changed',
  'turns.captured',
]);

/** What a service records about one change. */
export interface ActivityInput {
  type: ActivityType;
  boardId: string;
  /** The task the change is about, when there is one (indexes the task's history). */
  taskId?: string;
  /** The webhook payload's `data` without `board_id`, which is added from `boardId`. */
  data: Record<string, unknown>;
  /**
   * Text the change wrote that `data` does not carry and that may mention members (a new task's
   * description): handed to the consumers (notifications), never stored or delivered.
   */
  mentionable?: string;
}

export interface ActivityActor {
  kind: 'api_key' | 'user' | 'agent' | 'system';
  /** The agent's, key's or person's id; null for the CLI operator. */
  id: string | null;
  name: string;
}

/** One stored activity, as readers see it. */
export interface Activity {
  id: number;
  type: ActivityType;
  boardId: string;
  taskId: string | null;
  actor: ActivityActor;
  origin: 'api' | 'ui' | 'mcp' | 'cli';
  data: Record<string, unknown>;
  createdAt: string;
}

/**
 * An activity just recorded, handed to the consumers inside the same transaction. It has no id yet:
 * on PostgreSQL the row is written with the transaction's COMMIT (see DatabaseActivityRecorder).
 */
export interface RecordedActivity extends Omit<Activity, 'id'> {
  /** See ActivityInput. */
  mentionable?: string;
  /** The domain's rule (see `firesWebhooks`): only external-API and MCP changes reach webhooks. */
  firesWebhooks: boolean;
  /** The payload's `actor` (see `webhookActor`); null exactly when the activity fires no webhooks. */
  webhookActor: WebhookActor | null;
}

/** An activity a committed transaction wrote: its id (increasing per database) and its board. */
export interface CommittedActivity {
  id: number;
  boardId: string;
}

/**
 * A consumer of the activity: webhook fan-out reacts to each recorded activity inside the mutation's
 * transaction (throwing rolls the change back); the change feed hears, once the transaction has
 * committed, which activities it wrote (never for a rolled-back one). A consumer implements either or
 * both.
 */
export interface ActivityConsumer {
  onRecorded?(tx: Tx, activity: RecordedActivity): Promise<void>;
  /** After commit: must not throw (the change is already committed); errors are the consumer's own. */
  onCommitted?(activities: readonly CommittedActivity[]): void;
}
