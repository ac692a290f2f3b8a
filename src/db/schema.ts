import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

/*
 * Column conventions shared by both dialects, so one set of migrations and queries serves SQLite and
 * PostgreSQL: timestamps are ISO 8601 UTC text with milliseconds (they sort as text), booleans are
 * integers 0/1, lists are JSON text.
 */
import type {
  AgentsTable,
  ApiKeyRevealsTable,
  BoardMutesTable,
  InvitesTable,
  NotificationsTable,
  OidcIdentitiesTable,
  SessionsTable,
  SignInFailuresTable,
  TaskAssigneesTable,
  UsersTable,
} from './schema-people.js';

export * from './schema-people.js';

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_sealed: string;
  all_boards: number;
  created_at: string;
  revoked_at: string | null;
  /** The person who made the key in the web UI; null for keys made with the CLI. */
  owner_user_id: string | null;
  /** Updated at most once a minute per key (see ApiKeyService), so it costs the hot path nothing. */
  last_used_at: string | null;
  /** The agent the key belongs to (it then acts as the agent); null for a person's or nobody's key. */
  agent_id: string | null;
}

export interface ApiKeyGrantsTable {
  api_key_id: string;
  board_id: string;
  permission: Permission;
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
  /**
   * Sort key within the lane (ascending, then id). The dense position the API shows (0..n-1 among the
   * lane's non-archived tasks) is computed from it when reading; an archived task's rank means nothing.
   */
  rank: number;
  created_at: string;
  updated_at: string;
  last_turn_at: string | null;
  /** How many members are assigned: claiming takes a task only while it is 0 (task-claims.ts). */
  assignee_count: Generated<number>;
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

export interface AssetsTable {
  id: string;
  task_id: string;
  board_id: string;
  filename: string;
  content_type: string;
  size: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  source: 'user' | 'api' | 'agent';
  created_at: string;
}

/** An asset's bytes in order of `seq`, 256 KiB per chunk (the last may be shorter; none for an empty file). */
export interface AssetChunksTable {
  asset_id: string;
  seq: number;
  data: Buffer;
}

export interface ReactionsTable {
  comment_id: string;
  task_id: string;
  board_id: string;
  content: string;
  actor_kind: 'api_key' | 'agent' | 'user' | 'system';
  actor_id: string;
  created_at: string;
}

export interface ActivitiesTable {
  /** Increasing per database (SQLite rowid, PostgreSQL identity); the live stream's event id. */
  id: Generated<number>;
  board_id: string;
  task_id: string | null;
  type: string;
  actor_kind: 'api_key' | 'user' | 'agent' | 'system';
  /** The key's or person's id; null for the CLI operator. */
  actor_id: string | null;
  actor_name: string;
  origin: 'api' | 'ui' | 'mcp' | 'cli';
  /** JSON: the event's data without board_id. */
  data: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  api_key_id: string;
  idempotency_key: string;
  /** sha256 of method, path and body: a retry must be the same request. */
  fingerprint: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  number: number;
  at: string;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
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
  assets: AssetsTable;
  asset_chunks: AssetChunksTable;
  reactions: ReactionsTable;
  activities: ActivitiesTable;
  /** SQLite: the newest activities, not yet moved into `activities` (repositories/recent-activities.ts). */
  recent_activities: ActivitiesTable;
  /** A view: `activities` and, on SQLite, `recent_activities`. Read activities from here. */
  all_activities: ActivitiesTable;
  /** SQLite: one row, the smallest id below which ids may have been used (migration 013). */
  activity_id_floor: { floor: number };
  idempotency_keys: IdempotencyKeysTable;
  users: UsersTable;
  sessions: SessionsTable;
  invites: InvitesTable;
  sign_in_failures: SignInFailuresTable;
  api_key_reveals: ApiKeyRevealsTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  agents: AgentsTable;
  task_assignees: TaskAssigneesTable;
  oidc_identities: OidcIdentitiesTable;
  notifications: NotificationsTable;
  board_mutes: BoardMutesTable;
  board_tag_colors: BoardTagColorsTable;
}

/** A tag colour chosen on a board (migration 019); tags without a row show their derived colour. */
export interface BoardTagColorsTable {
  board_id: string;
  tag: string;
  color: string;
  updated_at: string;
}

export type Dialect = 'sqlite' | 'postgres';
/** A key's access to a board, as stored in grants. */
export type Permission = 'read' | 'edit';

/** Items at positions from..to (inclusive) move by delta: the SQL side of a dense-position move. */
export interface ShiftRange {
  from: number;
  to: number;
  delta: 1 | -1;
}
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
export type AssetRow = Selectable<AssetsTable>;
export type ReactionRow = Selectable<ReactionsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type ActivityRow = Selectable<ActivitiesTable>;
export type NewActivityRow = Insertable<ActivitiesTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

export type DeliveryAttemptRow = Selectable<WebhookDeliveryAttemptsTable>;
