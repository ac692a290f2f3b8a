import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { DomainError } from '../../domain/errors.js';
import { loggableError } from '../../lib/loggable-error.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Shared counters for several instances; null keeps them in this process's memory. */
  redis: Redis | null;
}

/** The external API and the MCP endpoint whose tools call it. */
const EXTERNAL_API = /^\/(?:api\/ext\/v1|mcp)(?:[/?#]|$)/;

/** Keys in the memory store: one per API key or client address seen in a window. */
const MEMORY_STORE_ENTRIES = 100_000;

/** Per API key; per client address for requests without a valid key. */
function rateLimitKey(request: FastifyRequest): string {
  const actor = request.actor;
  if (actor && (actor.kind === 'api_key' || actor.kind === 'agent')) return `key:${actor.keyId}`;
  return `ip:${request.ip}`;
}

/**
 * Fixed-window limits on the external API, counted in one root onRequest hook rather than per route, so
 * that every /api/ext/v1 response — 401s and 404s of unknown paths included — is counted and carries
 * the X-RateLimit-* headers. The hook runs after authentication's onRequest hook (this plugin depends
 * on it), so the key is known, and before authentication rejects a request in preParsing.
 */
export const rateLimiting = fp<RateLimitOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(rateLimit, {
      global: false,
      max: options.max,
      timeWindow: options.windowMs,
      keyGenerator: rateLimitKey,
      cache: MEMORY_STORE_ENTRIES,
      nameSpace: 'laneboard-rl:',
      ...(options.redis ? { redis: options.redis } : {}),
      skipOnError: false,
      addHeadersOnExceeding: {
        'x-ratelimit-limit': true,
        'x-ratelimit-remaining': true,
        'x-ratelimit-reset': true,
      },
      addHeaders: {
        'x-ratelimit-limit': true,
        'x-ratelimit-remaining': true,
        'x-ratelimit-reset': true,
        'retry-after': true,
      },
      errorResponseBuilder: () => new DomainError('rate_limited', 'Rate limit exceeded. Try again later.'),
    });

    const limit = app.rateLimit();
    app.addHook('onRequest', async function limitExternalApi(request, reply) {
      if (!EXTERNAL_API.test(request.url)) return;
      try {
        await limit.call(this, request, reply);
      } catch (error) {
        if (error instanceof DomainError) throw error;
        // The counter store (Redis) failed. The limit protects the service; an outage of its store
        // should not take the API down with it, so the request is served unlimited, and logged.
        request.log.warn(
          { err: loggableError(error) },
          'rate limit store unavailable; request served without a limit',
        );
      }
    });
  },
  { name: 'rate-limiting', dependencies: ['authentication'] },
);
