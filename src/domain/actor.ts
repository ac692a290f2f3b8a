import type { Permission } from '../db/schema.js';

export type { Permission } from '../db/schema.js';

/**
 * Who asks. Every domain operation takes one; its `origin` decides whether webhook events are recorded
 * and how comments are attributed, so no entry point (HTTP API, web UI, MCP, CLI) repeats those rules.
 * `name` (the key's name, the person's name, the agent's name) is stored with every activity.
 */
export type Actor =
  | {
      kind: 'api_key';
      origin: 'api';
      keyId: string;
      name: string;
      allBoards: boolean;
      /** Board grants as loaded when the request was authenticated. */
      grants: ReadonlyMap<string, Permission>;
    }
  | { kind: 'user'; origin: 'ui'; userId: string; name: string; role: 'owner' | 'admin' | 'member' }
  | {
      kind: 'agent';
      origin: 'mcp';
      keyId: string;
      name: string;
      allBoards: boolean;
      grants: ReadonlyMap<string, Permission>;
    }
  | { kind: 'system'; origin: 'cli'; name: string };

/** The operator at the console (every CLI command acts as this). */
export const CLI_OPERATOR: Actor = { kind: 'system', origin: 'cli', name: 'CLI' };

export type AuthorSource = 'user' | 'api' | 'agent';

/** The permission an actor holds on a board, or null when it has none. */
export function boardPermission(actor: Actor, boardId: string): Permission | null {
  switch (actor.kind) {
    case 'api_key':
    case 'agent':
      return actor.allBoards ? 'edit' : (actor.grants.get(boardId) ?? null);
    case 'user':
    case 'system':
      return 'edit';
  }
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
    case 'agent':
      return actor.keyId;
    case 'user':
      return actor.userId;
    case 'system':
      return null;
  }
}

/** The API key that a board created by this actor is granted to, if any. */
export function grantingKeyId(actor: Actor): string | null {
  return actor.kind === 'api_key' || actor.kind === 'agent' ? actor.keyId : null;
}

/**
 * How a comment or todo is attributed: people in the web UI are `user`; API callers choose `api`
 * (default) or `agent`; MCP agents are always `agent`.
 */
export function authorSource(actor: Actor, requested: 'api' | 'agent' | undefined): AuthorSource {
  switch (actor.kind) {
    case 'user':
      return 'user';
    case 'agent':
      return 'agent';
    default:
      return requested ?? 'api';
  }
}
