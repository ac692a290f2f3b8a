import type { Selectable } from 'kysely';

/** The web UI's people and sessions (migration 004), in the column conventions of schema.ts. */

export type Role = 'owner' | 'admin' | 'member';

export interface UsersTable {
  id: string;
  email: string;
  email_key: string;
  name: string;
  password_hash: string;
  role: Role;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface InvitesTable {
  id: string;
  token_hash: string;
  role: Role;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

export interface SignInFailuresTable {
  id: string;
  subject: string;
  at: string;
}

export interface ApiKeyRevealsTable {
  id: string;
  api_key_id: string;
  user_id: string;
  at: string;
}

/** Agents as members (migration 015): they hold API keys and can be assigned like people. */
export interface AgentsTable {
  id: string;
  name: string;
  description: string;
  active: number;
  created_at: string;
  updated_at: string;
}

/** Who is assigned to a task: a person (`usr_`) or an agent (`agt_`). */
export interface TaskAssigneesTable {
  task_id: string;
  board_id: string;
  member_id: string;
  member_type: 'person' | 'agent';
  created_at: string;
}

/** A person's OpenID Connect identity (migration 016): the person is found by issuer and subject. */
export interface OidcIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: string;
  last_used_at: string;
}

/** The web UI's inbox (migration 018): one row per person and event. */
export interface NotificationsTable {
  id: string;
  person_id: string;
  kind: 'assigned' | 'mentioned' | 'commented' | 'moved' | 'todos_done';
  board_id: string;
  task_id: string;
  comment_id: string | null;
  actor_kind: string;
  actor_name: string;
  created_at: string;
  read_at: string | null;
}

export interface BoardMutesTable {
  person_id: string;
  board_id: string;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type OidcIdentityRow = Selectable<OidcIdentitiesTable>;
export type AgentRow = Selectable<AgentsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InviteRow = Selectable<InvitesTable>;
