export type Permission = 'read' | 'edit';

/**
 * Who asks. Every domain operation takes one; its `origin` decides whether webhook events are recorded
 * and how comments are attributed, so no entry point (HTTP API, web UI, MCP, CLI) repeats those rules.
 */
export type Actor =
  | {
      kind: 'api_key';
      origin: 'api';
      keyId: string;
      allBoards: boolean;
      /** Board grants as loaded when the request was authenticated. */
      grants: ReadonlyMap<string, Permission>;
    }
  | { kind: 'user'; origin: 'ui'; userId: string; role: 'owner' | 'admin' | 'member' }
  | {
      kind: 'agent';
      origin: 'mcp';
      keyId: string;
      allBoards: boolean;
      grants: ReadonlyMap<string, Permission>;
    }
  | { kind: 'system'; origin: 'cli' };

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

/** Webhook events record integrations' changes only: the external API's, not the web UI's or the CLI's. */
export function recordsEvents(actor: Actor): boolean {
  return actor.origin === 'api';
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
