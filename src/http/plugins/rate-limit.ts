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

/** Counters kept in memory: one per API key or client address seen in a window. */
const MEMORY_STORE_ENTRIES = 100_000;

interface Window {
  startedAt: number;
  count: number;
}

/** Per API key; per client address for requests without a valid key. */
function rateLimitKey(request: FastifyRequest): string {
  const actor = request.actor;
  if (actor?.kind === 'api_key') return `key:${actor.keyId}`;
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
    if (!options.redis) {
      limitInMemory(app, options);
      return;
    }
    // Loaded only with Redis: without it the limiter below needs no plugin.
    const { default: rateLimit } = await import('@fastify/rate-limit');
    await app.register(rateLimit, {
      global: false,
      max: options.max,
      timeWindow: options.windowMs,
      keyGenerator: rateLimitKey,
      nameSpace: 'laneboard-rl:',
      redis: options.redis,
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

/**
 * Without Redis each instance counts in its own memory (docs/deployment.md). The same fixed windows and
 * headers as @fastify/rate-limit's memory store, counted in a synchronous hook: the plugin's hook costs
 * several promise hops per request, a measurable part of a short request (docs/performance.md).
 */
function limitInMemory(app: FastifyInstance, { max, windowMs }: RateLimitOptions): void {
  const windows = new Map<string, Window>();
  const limitHeader = String(max);
  app.addHook('onRequest', function limitExternalApi(request, reply, done) {
    if (!EXTERNAL_API.test(request.url)) return done();
    const key = rateLimitKey(request);
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || window.startedAt + windowMs <= now) {
      // A new window goes to the end of the map's order, so a full map drops the oldest window first.
      if (window !== undefined) windows.delete(key);
      else if (windows.size >= MEMORY_STORE_ENTRIES) windows.delete(windows.keys().next().value as string);
      window = { startedAt: now, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    const resetSeconds = Math.ceil((window.startedAt + windowMs - now) / 1000);
    reply.header('x-ratelimit-limit', limitHeader);
    reply.header('x-ratelimit-remaining', String(Math.max(0, max - window.count)));
    reply.header('x-ratelimit-reset', String(resetSeconds));
    if (window.count <= max) return done();
    reply.header('retry-after', String(Math.max(1, resetSeconds)));
    done(new DomainError('rate_limited', 'Rate limit exceeded. Try again later.'));
  });
}
