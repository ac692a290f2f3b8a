import { KeyChangeCache } from '../../db/key-changes.js';
import { findActiveKeyByHash, markKeyUsed } from '../../db/repositories/api-keys.js';
import type { Actor } from '../actor.js';
import type { ServiceDeps } from '../services.js';

/** Presented keys whose lookup hash is remembered; a full memo is simply emptied. */
const PRESENTED_HASH_MEMO = 10_000;
/** Presented keys whose actor (or rejection) is remembered; a full cache is simply emptied. */
const AUTHENTICATED_CACHE = 10_000;

const API_KEY_SHAPE = /^ak_[0-9A-Za-z_-]{20,200}$/;

/** last_used_at is written at most this often per key, so authenticating stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** An active key as authentication found it. */
interface KnownKey {
  actor: Extract<Actor, { kind: 'api_key' }>;
  lastUsedAt: string | null;
}

/**
 * Turns a presented `ak_` key into its actor on every API request, so it is built to need no query most
 * of the time: answers are cached per presented key until keys or grants change, lookup hashes are
 * memoised, and last_used_at is written at most once a minute per key.
 */
export class KeyAuthenticator {
  private readonly presentedHashes = new Map<string, string>();
  /** Actors (null: rejected) by presented key, until keys or grants change. */
  private readonly authenticated: KeyChangeCache<KnownKey | null>;
  private readonly recentUseWrites = new Map<string, number>();

  constructor(private readonly deps: ServiceDeps) {
    this.authenticated = new KeyChangeCache(deps.database.keyChanges, AUTHENTICATED_CACHE);
  }

  /**
   * The actor for a presented key, or null when it is malformed, unknown or revoked. Answers are cached
   * until the database reports a possible change to keys, grants, agents or people's names (see
   * db/key-changes.ts): a revocation
   * or grant change made by any instance or process applies to the next request here. A lookup whose
   * stamp moved while it ran is not cached (it may have read the state before the change).
   */
  async authenticate(presented: string): Promise<Actor | null> {
    const cached = this.cachedAuthentication(presented);
    if (cached !== undefined) return cached;
    const stamp = this.authenticated.readStamp();
    const known = await this.lookUp(presented);
    this.authenticated.keep(presented, known, stamp);
    return this.used(known);
  }

  /**
   * The answer for a presented key when it needs no query (a malformed key, or one looked up since keys
   * last changed), without waiting; undefined when it must be looked up. Authentication calls this
   * first, so most requests authenticate without a promise.
   */
  cachedAuthentication(presented: string): Actor | null | undefined {
    if (!API_KEY_SHAPE.test(presented)) return null;
    const known = this.authenticated.get(presented);
    return known === undefined ? undefined : this.used(known);
  }

  private used(known: KnownKey | null): Actor | null {
    if (!known) return null;
    // Also on a cached answer: the write (at most once a minute) moves the stamp, so the next lookup
    // reads the new last_used_at.
    this.noteUse(known.actor.keyId, known.lastUsedAt);
    return known.actor;
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
        agent: found.agent,
        person: found.person,
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
}
