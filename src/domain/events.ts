import type { Actor } from './actor.js';
import type { Tx } from './transaction.js';

export const EVENT_TYPES = [
  'board.created',
  'board.deleted',
  'lane.created',
  'lane.updated',
  'lane.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.moved',
  'comment.created',
  'comment.deleted',
  'todo.created',
  'todo.updated',
  'todo.deleted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface DomainEvent {
  type: EventType;
  boardId: string;
  /** The payload's `data` without `board_id`, which the recorder adds. */
  data: Record<string, unknown>;
}

/**
 * Records what changed inside the mutation's own transaction (the transactional outbox). Services call
 * it for every mutation; the recorder decides, from the actor, whether anything is recorded at all.
 */
export interface EventRecorder {
  record(tx: Tx, actor: Actor, event: DomainEvent): Promise<void>;
}
