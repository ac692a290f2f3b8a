import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain/errors.js';
import type { Person } from '../../domain/people/people-views.js';
import type { SessionService } from '../../domain/people/session-service.js';
import { ThrottledError } from '../../domain/people/sign-in-throttle.js';

export const SESSION_COOKIE = 'lb_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person of a web UI request, or null. */
    uiUser: Person | null;
    uiSessionId: string | null;
  }
  interface FastifyContextConfig {
    /** true for the few /api/ui routes that need no session (setup, sign-in, invite links). */
    public?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The cookie session and the CSRF rule of the web UI's API (docs/ui-api.md). Registered inside the
 * `/api/ui` scope, so the external API never sees a cookie.
 */
export const uiSession = fp<{ sessions: SessionService }>(
  async (app: FastifyInstance, { sessions }) => {
    await app.register(cookie);
    app.decorateRequest('uiUser', null);
    app.decorateRequest('uiSessionId', null);

    app.addHook('onRequest', async (request, reply) => {
      if (request.is404) return;
      if (!SAFE_METHODS.has(request.method)) checkOrigin(request);
      const sessionId = request.cookies[SESSION_COOKIE];
      if (sessionId) {
        const found = await sessions.authenticate(sessionId);
        if (found) {
          request.actor = found.actor;
          request.uiUser = found.user;
          request.uiSessionId = sessionId;
          if (found.extended) setSessionCookie(request, reply, sessionId, sessions.sessionTtlMs);
        } else {
          clearSessionCookie(request, reply);
        }
      }
      if (request.routeOptions.config.public !== true && request.uiUser === null) {
        throw new DomainError('unauthenticated', 'Sign in to continue.');
      }
    });

    app.addHook('onError', async (_request, reply, error) => {
      if (error instanceof ThrottledError) reply.header('Retry-After', String(error.retryAfterSeconds));
    });
  },
  { name: 'ui-session' },
);

/**
 * State-changing requests must come from the UI's own pages: `Origin` equal to this server's origin
 * (as the browser sees it, so behind a trusted proxy its forwarded scheme and host), or, without
 * `Origin`, `Sec-Fetch-Site: same-origin`.
 */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin.toLowerCase() === `${request.protocol}://${request.host}`.toLowerCase()) return;
  } else if (request.headers['sec-fetch-site'] === 'same-origin') {
    return;
  }
  throw new DomainError('csrf_failed', 'Cross-site request refused.');
}

function cookieOptions(request: FastifyRequest) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: request.protocol === 'https',
  };
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  ttlMs: number,
): void {
  reply.setCookie(SESSION_COOKIE, sessionId, { ...cookieOptions(request), maxAge: Math.floor(ttlMs / 1000) });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

/** The signed-in person of a route behind the session check. */
export function personOf(request: FastifyRequest): Person {
  if (!request.uiUser) throw new DomainError('unauthenticated', 'Sign in to continue.');
  return request.uiUser;
}
