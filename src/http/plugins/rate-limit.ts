import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { DomainError } from '../../domain/errors.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  redis: Redis | null;
}

/** Per API key; per client address for requests without a valid key. */
function rateLimitKey(request: FastifyRequest): string {
  const actor = request.actor;
  if (actor && (actor.kind === 'api_key' || actor.kind === 'agent')) return `key:${actor.keyId}`;
  return `ip:${request.ip}`;
}

export const rateLimiting = fp<RateLimitOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(rateLimit, {
      global: true,
      max: options.max,
      timeWindow: options.windowMs,
      keyGenerator: rateLimitKey,
      nameSpace: 'laneboard-rl:',
      ...(options.redis ? { redis: options.redis } : {}),
      // Only the external API is limited: health checks and the web UI are not.
      allowList: (request) => !request.url.startsWith('/api/ext/v1'),
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
  },
  { name: 'rate-limiting', dependencies: ['authentication'] },
);
