import type { Permission } from '../db/schema.js';

export type { Permission } from '../db/schema.js';

/** A member as an actor or assignee names it. */
export interface MemberRef {
  id: string;
  name: string;
}

/**
 * An API key at work, through the external API (`origin: 'api'`) or through MCP (`origin: 'mcp'`, both
 * transports: `POST /mcp` and `laneboard mcp` say so with the `X-Laneboard-Origin: mcp` header).
 */
export interface KeyActor {
  kind: 'api_key';
  origin: 'api' | 'mcp';
  keyId: string;
  name: string;
  allBoards: boolean;
  /** Board grants as loaded when the request was authenticated. */
  grants: ReadonlyMap<string, Permission>;
  /** The agent the key belongs to: the key then acts as the agent (activities, events, authorship). */
  agent: MemberRef | null;
  /** The person who made the key in the web UI (never set for an agent's key). */
  person: MemberRef | null;
}

/**
 * Who asks. Every domain operation takes one and each entry point builds its own: the external API and
 * MCP a key (KeyActor), the web UI the signed-in person, the CLI its operator. `origin` decides whether
 * webhook events are recorded and how comments are attributed, so no entry point repeats those rules.
 * Every activity stores who it is attributed to (`attributedActor`: an agent's key is the agent).
 */
export type Actor =
  | KeyActor
  | { kind: 'user'; origin: 'ui'; userId: string; name: string; role: 'owner' | 'admin' | 'member' }
  | { kind: 'system'; origin: 'cli'; name: string };

/** The operator at the console (every CLI command acts as this). */
export const CLI_OPERATOR: Actor = { kind: 'system', origin: 'cli', name: 'CLI' };

/** The same key, acting through MCP (the MCP transports' requests say so; the key's rights are unchanged). */
export function throughMcp(actor: KeyActor): KeyActor {
  return actor.origin === 'mcp' ? actor : { ...actor, origin: 'mcp' };
}

export type AuthorSource = 'user' | 'api' | 'agent';

/** The permission an actor holds on a board, or null when it has none. */
export function boardPermission(actor: Actor, boardId: string): Permission | null {
  if (actor.kind === 'api_key') return actor.allBoards ? 'edit' : (actor.grants.get(boardId) ?? null);
  return 'edit';
}

/**
 * Webhooks receive integrations' changes only: the external API's and MCP's (which is the external API
 * for agents), not the web UI's or the CLI's.
 */
export function firesWebhooks(actor: Actor): boolean {
  return actor.origin === 'api' || actor.origin === 'mcp';
}

/** Who an activity is attributed to: an agent's key is the agent, other keys themselves. */
export interface AttributedActor {
  kind: 'api_key' | 'user' | 'agent' | 'system';
  /** The agent's, key's or person's id; null for the CLI operator. */
  id: string | null;
  name: string;
}

export function attributedActor(actor: Actor): AttributedActor {
  switch (actor.kind) {
    case 'api_key':
      return actor.agent
        ? { kind: 'agent', id: actor.agent.id, name: actor.agent.name }
        : { kind: 'api_key', id: actor.keyId, name: actor.name };
    case 'user':
      return { kind: 'user', id: actor.userId, name: actor.name };
    case 'system':
      return { kind: 'system', id: null, name: actor.name };
  }
}

/**
 * The `actor` of a webhook payload: the agent, or the key with its name and, for a person's key, the
 * person. Null for the web UI's and the CLI's actors, whose changes fire no webhooks.
 */
export type WebhookActor =
  | { type: 'agent'; id: string; name: string }
  | { type: 'key'; id: string; name: string; person?: MemberRef };

export function webhookActor(actor: Actor): WebhookActor | null {
  return actor.kind === 'api_key' ? keyWebhookActor(actor) : null;
}

/** A key's payload actor: its agent, else the key with its person. */
export function keyWebhookActor(key: Pick<KeyActor, 'keyId' | 'name' | 'agent' | 'person'>): WebhookActor {
  if (key.agent) return { type: 'agent', id: key.agent.id, name: key.agent.name };
  const actor: WebhookActor = { type: 'key', id: key.keyId, name: key.name };
  return key.person ? { ...actor, person: { id: key.person.id, name: key.person.name } } : actor;
}

/**
 * The member a caller is, for assigning "me" and claiming: the key's agent, else the key's person, else
 * the signed-in person; null for a key of nobody and for the CLI operator.
 */
export function memberOf(actor: Actor): ({ type: 'person' | 'agent' } & MemberRef) | null {
  if (actor.kind === 'user') return { type: 'person', id: actor.userId, name: actor.name };
  if (actor.kind !== 'api_key') return null;
  if (actor.agent) return { type: 'agent', ...actor.agent };
  return actor.person ? { type: 'person', ...actor.person } : null;
}

/** The API key that a board created by this actor is granted to, if any. */
export function grantingKeyId(actor: Actor): string | null {
  return actor.kind === 'api_key' ? actor.keyId : null;
}

/**
 * How a comment or todo is attributed: people in the web UI are `user`; API callers choose `api`
 * (default) or `agent`, and an agent's key defaults to `agent`; whatever comes through MCP is an
 * agent's (`agent`).
 */
export function authorSource(actor: Actor, requested: 'api' | 'agent' | undefined): AuthorSource {
  if (actor.kind === 'user') return 'user';
  if (actor.origin === 'mcp') return 'agent';
  if (actor.kind === 'api_key' && actor.agent) return requested ?? 'agent';
  return requested ?? 'api';
}
