import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Actor, throughMcp } from '../../domain/actor.js';
import type { ApiKeyService } from '../../domain/api-keys/api-key-service.js';
import { DomainError } from '../../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    authFailure: 'missing_auth' | 'invalid_key' | null;
  }
  interface FastifyContextConfig {
    /**
     * false for the few /api/ext/v1 routes anyone may call (the OpenAPI document); true for routes
     * outside /api/ext/v1 that take an API key too (`POST /mcp`).
     */
    auth?: boolean;
  }
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * The header by which both MCP transports (`POST /mcp` in process, `laneboard mcp` over HTTP) say a
 * request is an MCP tool's: its changes are then recorded with origin `mcp` and comments and todos are
 * an agent's. It grants nothing the key does not hold (decisions.md, "Actors per entry point").
 */
export const ORIGIN_HEADER = 'x-laneboard-origin';

/**
 * Resolves the API key in onRequest (so rate limiting can count per key) and rejects unauthenticated
 * requests in preParsing, after the rate limiter and before the body is read.
 */
export const authentication = fp<{ apiKeys: ApiKeyService }>(
  async (app: FastifyInstance, { apiKeys }) => {
    app.decorateRequest('actor', null);
    app.decorateRequest('authFailure', null);

    // Callback-style hooks: most requests are answered from the key cache, and an async hook would cost
    // them promise hops for nothing (docs/performance.md).
    app.addHook('onRequest', (request, _reply, done) => {
      // An unknown route is 404 whoever asks: the API's routes are public (see openapi.json).
      if (request.is404 || request.routeOptions.config.auth === false) return done();
      const external = request.url.startsWith('/api/ext/v1');
      if (!external && request.routeOptions.config.auth !== true) return done();
      const header = request.headers.authorization;
      if (header === undefined || header === '') {
        request.authFailure = 'missing_auth';
        return done();
      }
      const token = BEARER.exec(header)?.[1];
      const viaMcp = request.headers[ORIGIN_HEADER] === 'mcp';
      const settle = (actor: Actor | null) => {
        if (actor === null) request.authFailure = 'invalid_key';
        else request.actor = viaMcp && actor.kind === 'api_key' ? throughMcp(actor) : actor;
      };
      if (!token) {
        settle(null);
        return done();
      }
      const cached = apiKeys.cachedAuthentication(token);
      if (cached !== undefined) {
        settle(cached);
        return done();
      }
      apiKeys.authenticate(token).then((actor) => {
        settle(actor);
        done();
      }, done);
    });

    app.addHook('preParsing', (request, reply, payload, done) => {
      if (request.authFailure === null) return done(null, payload);
      reply.header('WWW-Authenticate', 'Bearer');
      done(
        request.authFailure === 'missing_auth'
          ? new DomainError('missing_auth', 'Send your API key in the header `Authorization: Bearer ak_...`.')
          : new DomainError('invalid_key', 'The API key is not valid or has been revoked.'),
      );
    });
  },
  { name: 'authentication' },
);

/** The authenticated actor of a route behind authentication. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new DomainError('missing_auth', 'Authentication is required.');
  return request.actor;
}
