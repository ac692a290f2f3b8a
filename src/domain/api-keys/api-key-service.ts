import {
  findActiveKeyByHash,
  findApiKeyById,
  insertApiKey,
  listApiKeys,
  listGrants,
  markKeyRevoked,
  upsertGrant,
} from '../../db/repositories/api-keys.js';
import { boardExists } from '../../db/repositories/boards.js';
import { deleteWebhooksOfKey } from '../../db/repositories/webhooks.js';
import type { ApiKeyRow } from '../../db/schema.js';
import { newApiKeyValue, newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { Actor, Permission } from '../actor.js';
import { DomainError, forbidden, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction } from '../transaction.js';

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
}

export interface CreatedApiKey extends ApiKeyView {
  key: string;
}

/** Presented keys whose lookup hash is remembered; a full memo is simply emptied. */
const PRESENTED_HASH_MEMO = 10_000;

const API_KEY_SHAPE = /^ak_[0-9A-Za-z_-]{20,200}$/;

/** Key management is for operators: the CLI, or owners and admins in the web UI. */
function requireKeyAdmin(actor: Actor): void {
  if (actor.kind === 'system') return;
  if (actor.kind === 'user' && (actor.role === 'owner' || actor.role === 'admin')) return;
  throw forbidden('Managing API keys needs the owner or admin role.');
}

export class ApiKeyService {
  private readonly presentedHashes = new Map<string, string>();

  constructor(private readonly deps: ServiceDeps) {}

  async createKey(
    actor: Actor,
    input: { name: string; allBoards: boolean; grants: BoardGrant[] },
  ): Promise<CreatedApiKey> {
    requireKeyAdmin(actor);
    const name = requiredText('name', input.name, LIMITS.boardName);
    if (input.allBoards && input.grants.length > 0) {
      throw invalid('grants', 'must be empty for an all-boards key.');
    }
    if (!input.allBoards && input.grants.length === 0) {
      throw invalid('grants', 'must name at least one board unless the key has all-boards access.');
    }
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
    };
    await inTransaction(this.deps.database, async (tx) => {
      await insertApiKey(tx.db, row);
      for (const grant of input.grants) {
        if (!(await boardExists(tx.db, grant.boardId))) throw notFound(`Board ${grant.boardId}`);
        await upsertGrant(tx.db, row.id, grant.boardId, grant.permission, now);
      }
    });
    return { ...toView(row, input.allBoards ? [] : dedupeGrants(input.grants)), key };
  }

  async listKeys(actor: Actor): Promise<ApiKeyView[]> {
    requireKeyAdmin(actor);
    const db = this.deps.database.kysely;
    const rows = await listApiKeys(db);
    return Promise.all(rows.map(async (row) => toView(row, await this.grantsOf(row))));
  }

  async revealKey(actor: Actor, id: string): Promise<{ id: string; key: string }> {
    requireKeyAdmin(actor);
    const row = await findApiKeyById(this.deps.database.kysely, id);
    if (!row) throw notFound(`API key ${id}`);
    return { id, key: this.deps.secrets.decrypt(row.key_sealed) };
  }

  async grantBoard(actor: Actor, id: string, grant: BoardGrant): Promise<ApiKeyView> {
    requireKeyAdmin(actor);
    return inTransaction(this.deps.database, async (tx) => {
      const row = await findApiKeyById(tx.db, id);
      if (!row) throw notFound(`API key ${id}`);
      if (row.revoked_at) throw new DomainError('conflict', `API key ${id} is revoked.`);
      if (!(await boardExists(tx.db, grant.boardId))) throw notFound(`Board ${grant.boardId}`);
      await upsertGrant(tx.db, id, grant.boardId, grant.permission, isoNow(this.deps.clock));
      return toView(row, row.all_boards ? [] : await listGrants(tx.db, id).then(mapGrants));
    });
  }

  /** Revokes the key at once and removes its webhooks with their pending deliveries and history. */
  async revokeApiKey(actor: Actor, id: string): Promise<ApiKeyView> {
    requireKeyAdmin(actor);
    return inTransaction(this.deps.database, async (tx) => {
      const row = await findApiKeyById(tx.db, id);
      if (!row) throw notFound(`API key ${id}`);
      const now = isoNow(this.deps.clock);
      if (!row.revoked_at) await markKeyRevoked(tx.db, id, now);
      await deleteWebhooksOfKey(tx.db, id);
      return toView(
        { ...row, revoked_at: row.revoked_at ?? now },
        await listGrants(tx.db, id).then(mapGrants),
      );
    });
  }

  /** The actor for a presented key, or null when it is malformed, unknown or revoked. */
  async authenticate(presented: string): Promise<Actor | null> {
    if (!API_KEY_SHAPE.test(presented)) return null;
    const found = await findActiveKeyByHash(this.deps.database.kysely, this.presentedKeyHash(presented));
    if (!found) return null;
    return {
      kind: 'api_key',
      origin: 'api',
      keyId: found.id,
      allBoards: found.allBoards,
      grants: new Map(found.grants.map((g) => [g.board_id, g.permission])),
    };
  }

  /**
   * The lookup hash of a presented key, memoised: an integration sends the same key on every request, and
   * the HMAC is a measurable part of a short request. The hash never changes for a given key text, so
   * the memo cannot outlive a revocation (that is checked by the query, every time).
   */
  private presentedKeyHash(presented: string): string {
    let hash = this.presentedHashes.get(presented);
    if (hash === undefined) {
      hash = this.deps.secrets.lookupHash(presented);
      if (this.presentedHashes.size >= PRESENTED_HASH_MEMO) this.presentedHashes.clear();
      this.presentedHashes.set(presented, hash);
    }
    return hash;
  }

  private async grantsOf(row: ApiKeyRow): Promise<BoardGrant[]> {
    return row.all_boards ? [] : mapGrants(await listGrants(this.deps.database.kysely, row.id));
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
  };
}
