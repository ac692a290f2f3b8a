import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteIdempotencyKeysBefore,
  findIdempotencyKey,
  releaseIdempotencyKey,
} from '../../db/repositories/idempotency-keys.js';
import type { Actor } from '../actor.js';
import { DomainError } from '../errors.js';
import type { ServiceDeps } from '../services.js';

/** How long a key is remembered: a retry within this window is answered from the first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired keys are deleted at most this often per process. */
const PRUNE_INTERVAL_MS = 60 * 1000;

/** A key claimed for a request being served; completed with its response, or released on failure. */
export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
}

export type IdempotencyStart =
  | { kind: 'first'; claim: IdempotencyClaim }
  | { kind: 'replay'; statusCode: number; body: string };

/**
 * `Idempotency-Key` on external-API POSTs, as Stripe and the IETF draft define it: per API key, the
 * first request's fingerprint (method, path, body) is stored with its successful response; a retry with
 * the same key and the same request gets that response again without running twice. The same key with
 * another request is refused (422), as is a retry while the first is still running (409). Failed
 * requests (any non-2xx) are forgotten, so fixing and retrying with the same key works.
 */
export class IdempotencyService {
  private lastPrune = 0;

  constructor(private readonly deps: ServiceDeps) {}

  async begin(actor: Actor, key: string, fingerprint: string): Promise<IdempotencyStart | null> {
    if (actor.kind !== 'api_key') return null;
    const db = this.deps.database.kysely;
    const now = this.deps.clock.now();
    const cutoff = new Date(now - IDEMPOTENCY_TTL_MS).toISOString();
    if (now - this.lastPrune >= PRUNE_INTERVAL_MS) {
      this.lastPrune = now;
      await deleteIdempotencyKeysBefore(db, cutoff);
    }
    const claim = { apiKeyId: actor.keyId, key };
    const row = { ...claim, fingerprint, createdAt: new Date(now).toISOString() };
    // Two attempts: the second follows the removal of an expired row for the same key.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await claimIdempotencyKey(db, row)) return { kind: 'first', claim };
      const existing = await findIdempotencyKey(db, claim.apiKeyId, key);
      if (!existing) continue;
      if (existing.created_at < cutoff) {
        await releaseIdempotencyKey(db, claim.apiKeyId, key);
        continue;
      }
      if (existing.fingerprint !== fingerprint) {
        throw new DomainError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request; use a new key for a new request.',
        );
      }
      if (existing.status_code === null || existing.response_body === null) {
        throw new DomainError(
          'conflict',
          'A request with this Idempotency-Key is still being served; retry it in a moment.',
        );
      }
      return { kind: 'replay', statusCode: existing.status_code, body: existing.response_body };
    }
    throw new DomainError('conflict', 'The Idempotency-Key could not be claimed; retry the request.');
  }

  async complete(claim: IdempotencyClaim, statusCode: number, body: string): Promise<void> {
    await completeIdempotencyKey(this.deps.database.kysely, claim.apiKeyId, claim.key, { statusCode, body });
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await releaseIdempotencyKey(this.deps.database.kysely, claim.apiKeyId, claim.key);
  }
}
