import { lockActiveAgent } from '../../db/repositories/agents.js';
import {
  findApiKeyById,
  insertApiKey,
  listApiKeys,
  listGrants,
  markKeyRevoked,
  replaceGrants,
  upsertGrant,
} from '../../db/repositories/api-keys.js';
import { boardExists } from '../../db/repositories/boards.js';
import { countWebhooksOfKey, deleteWebhooksOfKey } from '../../db/repositories/webhooks.js';
import type { ApiKeyRow } from '../../db/schema.js';
import { newApiKeyValue, newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { Actor, Permission } from '../actor.js';
import { requireAgentManager } from '../agents/agent-rules.js';
import { DomainError, forbidden, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction, type Tx } from '../transaction.js';
import { KeyAuthenticator } from './key-authenticator.js';

export interface BoardGrant {
  boardId: string;
  permission: Permission;
}

export interface ApiKeyView {
  id: string;
  name: string;
  allBoards: boolean;
  grants: BoardGrant[];
  createdAt: string;
  revokedAt: string | null;
  /** The agent the key belongs to and acts as; null for a person's or nobody's key. */
  agentId: string | null;
}

export interface CreatedApiKey extends ApiKeyView {
  key: string;
}

/**
 * Whose keys an actor manages: every key for the operator (CLI) and the web UI's owners and admins
 * (`null`); a member only the keys they made. Keys themselves manage no keys.
 */
export function keyOwnerScope(actor: Actor): string | null {
  if (actor.kind === 'system') return null;
  if (actor.kind === 'user') return actor.role === 'owner' || actor.role === 'admin' ? null : actor.userId;
  throw forbidden('API keys are managed in the web UI or with the CLI.');
}

/** A key the actor may manage: another person's key is "not found" for a member. */
function visibleTo(row: ApiKeyRow | undefined, scope: string | null): row is ApiKeyRow {
  return row !== undefined && (scope === null || row.owner_user_id === scope);
}

export class ApiKeyService {
  private readonly authenticator: KeyAuthenticator;

  constructor(private readonly deps: ServiceDeps) {
    this.authenticator = new KeyAuthenticator(deps);
  }

  /**
   * A new key: the person's who makes it in the web UI, nobody's when made with the CLI, or, with
   * `agentId` (owners, admins and the operator only), the agent's, which it then acts as.
   */
  async createKey(
    actor: Actor,
    input: { name: string; allBoards: boolean; grants: BoardGrant[]; agentId?: string },
  ): Promise<CreatedApiKey> {
    keyOwnerScope(actor);
    const agentId = input.agentId ?? null;
    if (agentId !== null) requireAgentManager(actor);
    const name = requiredText('name', input.name, LIMITS.boardName);
    checkAccess(input);
    const key = newApiKeyValue();
    const now = isoNow(this.deps.clock);
    const row: ApiKeyRow = {
      id: newId('key'),
      name,
      key_hash: this.deps.secrets.lookupHash(key),
      key_sealed: this.deps.secrets.encrypt(key),
      all_boards: input.allBoards ? 1 : 0,
      created_at: now,
      revoked_at: null,
      // An agent's key is the agent's alone: it outlives the person who made it.
      owner_user_id: actor.kind === 'user' && agentId === null ? actor.userId : null,
      last_used_at: null,
      agent_id: agentId,
    };
    await inTransaction(this.deps.database, async (tx) => {
      if (agentId !== null && !(await lockActiveAgent(tx, agentId))) {
        throw invalid('agentId', 'must be the id of an active agent.');
      }
      await insertApiKey(tx.db, row);
      for (const grant of input.grants) {
        if (!(await boardExists(tx.db, grant.boardId))) throw notFound(`Board ${grant.boardId}`);
        await upsertGrant(tx.db, row.id, grant.boardId, grant.permission, now);
      }
    });
    this.deps.database.keyChanges.changed();
    return { ...toView(row, input.allBoards ? [] : dedupeGrants(input.grants)), key };
  }

  async listKeys(actor: Actor): Promise<ApiKeyView[]> {
    const scope = keyOwnerScope(actor);
    const db = this.deps.database.kysely;
    const rows = (await listApiKeys(db)).filter((row) => visibleTo(row, scope));
    return Promise.all(rows.map(async (row) => toView(row, await this.grantsOf(row))));
  }

  async revealKey(actor: Actor, id: string): Promise<{ id: string; key: string }> {
    const scope = keyOwnerScope(actor);
    const row = await findApiKeyById(this.deps.database.kysely, id);
    if (!visibleTo(row, scope)) throw notFound(`API key ${id}`);
    return { id, key: this.deps.secrets.decrypt(row.key_sealed) };
  }

  async grantBoard(actor: Actor, id: string, grant: BoardGrant): Promise<ApiKeyView> {
    const scope = keyOwnerScope(actor);
    return this.changingKeys(async (tx) => {
      const row = await findApiKeyById(tx.db, id);
      if (!visibleTo(row, scope)) throw notFound(`API key ${id}`);
      if (row.revoked_at) throw new DomainError('conflict', `API key ${id} is revoked.`);
      if (!(await boardExists(tx.db, grant.boardId))) throw notFound(`Board ${grant.boardId}`);
      await upsertGrant(tx.db, id, grant.boardId, grant.permission, isoNow(this.deps.clock));
      return toView(row, row.all_boards ? [] : await listGrants(tx.db, id).then(mapGrants));
    });
  }

  /** Replaces the key's access entirely: all boards, or exactly these grants. */
  async setAccess(
    actor: Actor,
    id: string,
    input: { allBoards: boolean; grants: BoardGrant[] },
  ): Promise<ApiKeyView> {
    const scope = keyOwnerScope(actor);
    checkAccess(input);
    const grants = input.allBoards ? [] : dedupeGrants(input.grants);
    return this.changingKeys(async (tx) => {
      const row = await findApiKeyById(tx.db, id);
      if (!visibleTo(row, scope)) throw notFound(`API key ${id}`);
      if (row.revoked_at) throw new DomainError('conflict', `API key ${id} is revoked.`);
      for (const grant of grants) {
        if (!(await boardExists(tx.db, grant.boardId))) throw notFound(`Board ${grant.boardId}`);
      }
      await replaceGrants(tx.db, id, input.allBoards, grants, isoNow(this.deps.clock));
      return toView({ ...row, all_boards: input.allBoards ? 1 : 0 }, grants);
    });
  }

  /** Revokes the key at once and removes its webhooks with their pending deliveries and history. */
  async revokeApiKey(actor: Actor, id: string): Promise<ApiKeyView & { webhooksRemoved: number }> {
    const scope = keyOwnerScope(actor);
    return this.changingKeys(async (tx) => {
      const row = await findApiKeyById(tx.db, id);
      if (!visibleTo(row, scope)) throw notFound(`API key ${id}`);
      const now = isoNow(this.deps.clock);
      if (!row.revoked_at) await markKeyRevoked(tx.db, id, now);
      const webhooksRemoved = await countWebhooksOfKey(tx.db, id);
      await deleteWebhooksOfKey(tx.db, id);
      const view = toView(
        { ...row, revoked_at: row.revoked_at ?? now },
        await listGrants(tx.db, id).then(mapGrants),
      );
      return { ...view, webhooksRemoved };
    });
  }

  /** The actor for a presented key, or null when it is malformed, unknown or revoked (see KeyAuthenticator). */
  authenticate(presented: string): Promise<Actor | null> {
    return this.authenticator.authenticate(presented);
  }

  /** The answer for a presented key when it needs no query; undefined when it must be looked up. */
  cachedAuthentication(presented: string): Actor | null | undefined {
    return this.authenticator.cachedAuthentication(presented);
  }

  /** A transaction that changes keys or grants; this process's key cache forgets once it commits. */
  private async changingKeys<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.deps.database, work);
    } finally {
      this.deps.database.keyChanges.changed();
    }
  }

  private async grantsOf(row: ApiKeyRow): Promise<BoardGrant[]> {
    return row.all_boards ? [] : mapGrants(await listGrants(this.deps.database.kysely, row.id));
  }
}

function checkAccess(input: { allBoards: boolean; grants: BoardGrant[] }): void {
  if (input.allBoards && input.grants.length > 0) {
    throw invalid('grants', 'must be empty for an all-boards key.');
  }
  if (!input.allBoards && input.grants.length === 0) {
    throw invalid('grants', 'must name at least one board unless the key has all-boards access.');
  }
}

function mapGrants(rows: Array<{ board_id: string; permission: Permission }>): BoardGrant[] {
  return rows.map((g) => ({ boardId: g.board_id, permission: g.permission }));
}

function dedupeGrants(grants: BoardGrant[]): BoardGrant[] {
  return [...new Map(grants.map((g) => [g.boardId, g])).values()];
}

function toView(row: ApiKeyRow, grants: BoardGrant[]): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    allBoards: row.all_boards === 1,
    grants,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    agentId: row.agent_id,
  };
}
