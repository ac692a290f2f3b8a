import {
  findActiveKeyByHash,
  findApiKeyById,
  insertApiKey,
  listApiKeys,
  listGrants,
  markKeyRevoked,
  markKeyUsed,
  replaceGrants,
  upsertGrant,
} from '../../db/repositories/api-keys.js';
import { boardExists } from '../../db/repositories/boards.js';
import { countWebhooksOfKey, deleteWebhooksOfKey } from '../../db/repositories/webhooks.js';
import type { ApiKeyRow } from '../../db/schema.js';
import { newApiKeyValue, newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { Actor, Permission } from '../actor.js';
import { DomainError, forbidden, invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction, type Tx } from '../transaction.js';

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
/** Presented keys whose actor (or rejection) is remembered; a full cache is simply emptied. */
const AUTHENTICATED_CACHE = 10_000;

const API_KEY_SHAPE = /^ak_[0-9A-Za-z_-]{20,200}$/;

/** last_used_at is written at most this often per key, so authenticating stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

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

/** An active key as authentication found it. */
interface KnownKey {
  actor: Extract<Actor, { kind: 'api_key' }>;
  lastUsedAt: string | null;
}

export class ApiKeyService {
  private readonly presentedHashes = new Map<string, string>();
  /** Actors (null: rejected) by presented key, valid while the database's key-change stamp is `stamp`. */
  private readonly authenticated = new Map<string, KnownKey | null>();
  private stamp: string | null = null;
  private readonly recentUseWrites = new Map<string, number>();

  constructor(private readonly deps: ServiceDeps) {}

  async createKey(
    actor: Actor,
    input: { name: string; allBoards: boolean; grants: BoardGrant[] },
  ): Promise<CreatedApiKey> {
    keyOwnerScope(actor);
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
      owner_user_id: actor.kind === 'user' ? actor.userId : null,
      last_used_at: null,
    };
    await inTransaction(this.deps.database, async (tx) => {
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

  /**
   * The actor for a presented key, or null when it is malformed, unknown or revoked. Answers are cached
   * until the database reports a possible change to keys or grants (see db/key-changes.ts): a revocation
   * or grant change made by any instance or process applies to the next request here. A lookup whose
   * stamp moved while it ran is not cached (it may have read the state before the change).
   */
  async authenticate(presented: string): Promise<Actor | null> {
    const cached = this.cachedAuthentication(presented);
    if (cached !== undefined) return cached;
    const stamp = this.deps.database.keyChanges.current();
    const known = await this.lookUp(presented);
    if (stamp !== null && this.deps.database.keyChanges.current() === stamp && this.stamp === stamp) {
      if (this.authenticated.size >= AUTHENTICATED_CACHE) this.authenticated.clear();
      this.authenticated.set(presented, known);
    }
    return this.used(known);
  }

  /**
   * The answer for a presented key when it needs no query (a malformed key, or one looked up since keys
   * last changed), without waiting; undefined when it must be looked up. Authentication calls this
   * first, so most requests authenticate without a promise.
   */
  cachedAuthentication(presented: string): Actor | null | undefined {
    if (!API_KEY_SHAPE.test(presented)) return null;
    const stamp = this.deps.database.keyChanges.current();
    if (stamp !== this.stamp) {
      this.authenticated.clear();
      this.stamp = stamp;
    }
    const known = stamp === null ? undefined : this.authenticated.get(presented);
    return known === undefined ? undefined : this.used(known);
  }

  private used(known: KnownKey | null): Actor | null {
    if (!known) return null;
    // Also on a cached answer: the write (at most once a minute) moves the stamp, so the next lookup
    // reads the new last_used_at.
    this.noteUse(known.actor.keyId, known.lastUsedAt);
    return known.actor;
  }

  /** A transaction that changes keys or grants; this process's key cache forgets once it commits. */
  private async changingKeys<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.deps.database, work);
    } finally {
      this.deps.database.keyChanges.changed();
    }
  }

  private async lookUp(presented: string): Promise<KnownKey | null> {
    const found = await findActiveKeyByHash(this.deps.database.kysely, this.presentedKeyHash(presented));
    if (!found) return null;
    return {
      actor: {
        kind: 'api_key',
        origin: 'api',
        keyId: found.id,
        name: found.name,
        allBoards: found.allBoards,
        grants: new Map(found.grants.map((g) => [g.board_id, g.permission])),
      },
      lastUsedAt: found.lastUsedAt,
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

  /**
   * Records when the key was last used, at most once a minute per key: the read that authenticated
   * already carries the stored time, so most requests write nothing, and the write never delays them.
   */
  private noteUse(keyId: string, lastUsedAt: string | null): void {
    const now = this.deps.clock.now();
    if (lastUsedAt !== null && now - Date.parse(lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
    const recent = this.recentUseWrites.get(keyId);
    if (recent !== undefined && now - recent < LAST_USED_RESOLUTION_MS) return;
    if (this.recentUseWrites.size >= PRESENTED_HASH_MEMO) this.recentUseWrites.clear();
    this.recentUseWrites.set(keyId, now);
    const notSince = new Date(now - LAST_USED_RESOLUTION_MS).toISOString();
    markKeyUsed(this.deps.database.kysely, keyId, new Date(now).toISOString(), notSince).catch(() => {
      // Only a display hint: a failed write is retried by a later request after the memo expires.
      this.recentUseWrites.delete(keyId);
    });
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
  };
}
