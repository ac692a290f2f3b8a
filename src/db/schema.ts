import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';

/*
 * Column conventions shared by both dialects, so one set of migrations and queries serves SQLite and
 * PostgreSQL: timestamps are ISO 8601 UTC text with milliseconds (they sort as text), booleans are
 * integers 0/1, lists are JSON text.
 */

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_sealed: string;
  all_boards: number;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKeyGrantsTable {
  api_key_id: string;
  board_id: string;
  permission: 'read' | 'edit';
  created_at: string;
}

export interface BoardsTable {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface LanesTable {
  id: string;
  board_id: string;
  name: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface TasksTable {
  id: string;
  board_id: string;
  lane_id: string;
  short_id: string;
  title: string;
  description: string;
  priority: number;
  tags: string;
  archived: number;
  /** Index among the lane's non-archived tasks; null while archived. */
  position: number | null;
  created_at: string;
  updated_at: string;
  last_turn_at: string | null;
}

export interface CommentsTable {
  id: string;
  task_id: string;
  board_id: string;
  body: string;
  author_name: string;
  author_source: 'user' | 'api' | 'agent';
  created_at: string;
}

export interface TodosTable {
  id: string;
  task_id: string;
  board_id: string;
  text: string;
  iteration: number;
  done: number;
  sort_order: number;
  source: 'user' | 'api' | 'agent';
  created_at: string;
  updated_at: string;
}

export interface TurnsTable {
  id: string;
  task_id: string;
  board_id: string;
  source: 'copilot' | 'claude';
  source_id: string;
  role: 'user' | 'assistant';
  content: string;
  tool_use_only: number;
  captured_at: string;
  created_at: string;
}

export interface WebhooksTable {
  id: string;
  api_key_id: string;
  url: string;
  events: string;
  active: number;
  secret_sealed: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEventsTable {
  id: string;
  type: string;
  board_id: string | null;
  payload: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** Epoch milliseconds; integers compare cheaply in the due-deliveries index. */
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
}

export interface DB {
  api_keys: ApiKeysTable;
  api_key_grants: ApiKeyGrantsTable;
  boards: BoardsTable;
  lanes: LanesTable;
  tasks: TasksTable;
  comments: CommentsTable;
  todos: TodosTable;
  turns: TurnsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type Executor = Kysely<DB> | Transaction<DB>;

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type BoardRow = Selectable<BoardsTable>;
export type LaneRow = Selectable<LanesTable>;
export type TaskRow = Selectable<TasksTable>;
export type NewTaskRow = Insertable<TasksTable>;
export type CommentRow = Selectable<CommentsTable>;
export type TodoRow = Selectable<TodosTable>;
export type TurnRow = Selectable<TurnsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
