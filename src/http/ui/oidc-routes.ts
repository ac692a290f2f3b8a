import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionService } from '../../domain/people/session-service.js';
import { SsoRefusal, type SsoService } from '../../domain/people/sso-service.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { Data } from '../../schemas/common.js';
import { SignInOptions } from '../../schemas/people.js';
import { setSessionCookie } from './ui-session.js';

/** What a sign-in remembers between its start and the provider's redirect back (auth/oidc's shape). */
interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

type Outcome =
  | {
      ok: true;
      identity: {
        issuer: string;
        subject: string;
        email: string | null;
        emailVerified: boolean;
        name: string | null;
      };
    }
  | { ok: false; reason: string; detail: string };

/** The OpenID Connect relying party (src/auth/oidc), as these routes use it. */
export interface RelyingParty {
  begin(): Promise<{ url: string; pending: PendingSignIn }>;
  complete(query: string, pending: PendingSignIn): Promise<Outcome>;
}

/** Single sign-on as the server runs it: the discovered provider, and the key that seals attempts. */
export interface SingleSignOn {
  relyingParty: RelyingParty;
  secrets: SecretBox;
}

export interface SingleSignOnRoutesOptions {
  /** Null: single sign-on is not configured (the start and callback routes answer 404). */
  singleSignOn: SingleSignOn | null;
  sessions: SessionService;
  sso: SsoService;
}

const FLOW_COOKIE = 'lb_oidc';
const FLOW_PATH = '/api/ui/oidc';
/** Time a person has at the identity provider before the attempt must start again. */
const FLOW_TTL_MS = 10 * 60_000;

interface Flow extends PendingSignIn {
  invite: string | null;
  /** The page to land on after signing in (a path of this site). */
  next: string;
  expiresAt: number;
}

const StartQuery = Type.Object({
  invite: Type.Optional(Type.String({ maxLength: 200 })),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});

/**
 * Single sign-on with OpenID Connect (authorization code flow with PKCE, state and nonce). The pending
 * attempt lives in a short-lived, httpOnly cookie sealed with the master key (AES-GCM: neither read nor
 * altered by the browser), scoped to these routes; the callback ends it whatever happens, and opens the
 * existing server-side session on success. Without single sign-on only `/sign-in-options` exists. Refusals go back to the sign-in page with a reason code
 * (`/login?sso_error=...`) that the page explains in words: no JSON, no provider text.
 */
export const oidcRoutes: FastifyPluginAsyncTypebox<SingleSignOnRoutesOptions> = async (
  app,
  { singleSignOn, sessions, sso },
) => {
  app.get(
    '/sign-in-options',
    { config: { public: true }, schema: { response: { 200: Data(SignInOptions) } } },
    async () => ({ data: { sso: singleSignOn !== null, passwordSignIn: sessions.passwordSignIn } }),
  );
  if (singleSignOn === null) return;
  const { relyingParty, secrets } = singleSignOn;

  app.get(
    '/oidc/start',
    { config: { public: true }, schema: { querystring: StartQuery } },
    async (request, reply) => {
      const { url, pending } = await relyingParty.begin();
      const flow: Flow = {
        ...pending,
        invite: request.query.invite ?? null,
        next: localPath(request.query.next),
        expiresAt: Date.now() + FLOW_TTL_MS,
      };
      reply.setCookie(FLOW_COOKIE, secrets.encrypt(JSON.stringify(flow)), {
        ...flowCookieOptions(request),
        maxAge: FLOW_TTL_MS / 1000,
      });
      return reply.redirect(url, 302);
    },
  );

  app.get('/oidc/callback', { config: { public: true } }, async (request, reply) => {
    const flow = openFlow(request.cookies[FLOW_COOKIE], secrets);
    // One attempt per start, however it ends: the cookie goes now.
    reply.clearCookie(FLOW_COOKIE, flowCookieOptions(request));
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const returnedState = new URLSearchParams(query).get('state') ?? '';
    if (flow === null || !sameText(returnedState, flow.state)) {
      return refuse(request, reply, 'state', flow === null ? 'no pending sign-in' : 'state differs');
    }
    const outcome = await relyingParty.complete(query, flow);
    if (!outcome.ok) return refuse(request, reply, outcome.reason, outcome.detail);
    try {
      const signedIn = await sso.signIn(outcome.identity, flow.invite);
      setSessionCookie(request, reply, signedIn.sessionId, sessions.sessionTtlMs);
      request.log.info({ userId: signedIn.user.id }, 'signed in with single sign-on');
      return reply.redirect(localPath(flow.next), 302);
    } catch (error) {
      if (error instanceof SsoRefusal) return refuse(request, reply, error.reason, error.message);
      throw error;
    }
  });
};

function refuse(request: FastifyRequest, reply: FastifyReply, reason: string, detail: string) {
  request.log.warn({ reason, detail }, 'single sign-on refused');
  return reply.redirect(`/login?sso_error=${encodeURIComponent(reason)}`, 302);
}

function flowCookieOptions(request: FastifyRequest) {
  // Lax: the provider's redirect back is a top-level GET from its site, which Lax cookies go with.
  return { httpOnly: true, sameSite: 'lax' as const, path: FLOW_PATH, secure: request.protocol === 'https' };
}

function openFlow(sealed: string | undefined, secrets: SecretBox): Flow | null {
  if (sealed === undefined || sealed.length > 4096) return null;
  try {
    const flow = JSON.parse(secrets.decrypt(sealed)) as Flow;
    return typeof flow.state === 'string' && flow.expiresAt > Date.now() ? flow : null;
  } catch {
    // Altered, from another key, or not ours at all: the same as no attempt.
    return null;
  }
}

/** Only a path of this site: `next` comes from the address bar and must not send anyone elsewhere. */
function localPath(next: string | undefined): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
