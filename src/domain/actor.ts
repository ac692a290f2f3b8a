import type { Permission } from '../db/schema.js';

export type { Permission } from '../db/schema.js';

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
}

/**
 * Who asks. Every domain operation takes one and each entry point builds its own: the external API and
 * MCP a key (KeyActor), the web UI the signed-in person, the CLI its operator. `origin` decides whether
 * webhook events are recorded and how comments are attributed, so no entry point repeats those rules.
 * `name` (the key's name, the person's name) is stored with every activity.
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

/** The id stored as an activity's actor: the key's or person's id, none for the CLI operator. */
export function actorId(actor: Actor): string | null {
  switch (actor.kind) {
    case 'api_key':
      return actor.keyId;
    case 'user':
      return actor.userId;
    case 'system':
      return null;
  }
}

/** The API key that a board created by this actor is granted to, if any. */
export function grantingKeyId(actor: Actor): string | null {
  return actor.kind === 'api_key' ? actor.keyId : null;
}

/**
 * How a comment or todo is attributed: people in the web UI are `user`; API callers choose `api`
 * (default) or `agent`; whatever comes through MCP is an agent's (`agent`).
 */
export function authorSource(actor: Actor, requested: 'api' | 'agent' | undefined): AuthorSource {
  if (actor.kind === 'user') return 'user';
  if (actor.origin === 'mcp') return 'agent';
  return requested ?? 'api';
}
