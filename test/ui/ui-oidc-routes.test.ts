import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { RelyingParty } from '../../src/http/ui/oidc-routes.js';
import { SecretBox } from '../../src/lib/secret-box.js';
import type { Runtime } from '../../src/runtime.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { describeEachDialect, useFixture } from '../support/dialects.js';
import { TEST_MASTER_KEY, testRuntime } from '../support/runtime.js';

type Outcome = Awaited<ReturnType<RelyingParty['complete']>>;

/** A provider double: hands out numbered attempts and answers the callback with `next`. */
class FakeProvider implements RelyingParty {
  attempts = 0;
  completed: string[] = [];
  next: Outcome = { ok: false, reason: 'failed', detail: 'not set' };
  async begin() {
    this.attempts += 1;
    const pending = { state: `state-${this.attempts}`, nonce: `nonce-${this.attempts}`, codeVerifier: 'v' };
    return { url: `https://id.example.com/authorize?state=${pending.state}`, pending };
  }
  async complete(query: string): Promise<Outcome> {
    this.completed.push(query);
    return this.next;
  }
}

interface World {
  db: TestDatabase;
  runtime: Runtime;
  withSso: FastifyInstance;
  withoutSso: FastifyInstance;
  provider: FakeProvider;
}

/** The OIDC routes of the UI API (issue 30) around a provider double, on both dialects. */
describeEachDialect('single sign-on routes', (dialect) => {
  const t = useFixture<World>(
    `the ${dialect} apps`,
    async () => {
      const db = await createTestDatabase(dialect);
      const runtime = await testRuntime(db.database, {
        services: { sso: { allowedDomains: ['example.com'] } },
      });
      const provider = new FakeProvider();
      const deps = {
        database: db.database,
        services: runtime.services,
        rateLimit: { max: 1e6, windowMs: 60_000 },
      };
      const withSso = await buildApp({
        ...deps,
        singleSignOn: { relyingParty: provider, secrets: new SecretBox(TEST_MASTER_KEY) },
      });
      const withoutSso = await buildApp(deps);
      return { db, runtime, withSso, withoutSso, provider };
    },
    async ({ db, runtime, withSso, withoutSso }) => {
      await withSso.close();
      await withoutSso.close();
      await runtime.close();
      await db.drop();
    },
  );

  /** Starts an attempt: the sealed cookie's `name=value` and the state the provider was given. */
  async function start(query = ''): Promise<{ cookie: string; state: string }> {
    const answer = await t.withSso.inject({ method: 'GET', url: `/api/ui/oidc/start${query}` });
    expect(answer.statusCode).toBe(302);
    const state = new URL(answer.headers.location as string).searchParams.get('state') as string;
    const setCookie = String(answer.headers['set-cookie']);
    return { cookie: setCookie.split(';')[0] as string, state };
  }

  const callback = (query: string, cookie?: string) =>
    t.withSso.inject({
      method: 'GET',
      url: `/api/ui/oidc/callback?${query}`,
      headers: cookie ? { cookie } : {},
    });

  const identity = (email: string) => ({
    ok: true as const,
    identity: {
      issuer: 'https://id.example.com',
      subject: `sub-${email}`,
      email,
      emailVerified: true,
      name: 'N',
    },
  });

  it('tells the sign-in page whether SSO is offered', async () => {
    for (const [app, sso] of [
      [t.withSso, true],
      [t.withoutSso, false],
    ] as const) {
      const answer = await app.inject({ method: 'GET', url: '/api/ui/sign-in-options' });
      expect(answer.json()).toEqual({ data: { sso, passwordSignIn: true } });
    }
  });

  it('answers 404 in the error format without single sign-on', async () => {
    for (const url of ['/api/ui/oidc/start', '/api/ui/oidc/callback?code=c&state=s']) {
      const answer = await t.withoutSso.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('starts with a sealed, httpOnly, short-lived attempt cookie scoped to the OIDC routes', async () => {
    const answer = await t.withSso.inject({ method: 'GET', url: '/api/ui/oidc/start' });
    expect(answer.headers.location).toMatch(/^https:\/\/id\.example\.com\/authorize\?state=state-\d+$/);
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(/^lb_oidc=v1\./);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/Path=\/api\/ui\/oidc/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // Sealed: neither the state nor the PKCE verifier can be read from it.
    expect(cookie).not.toMatch(/state-|nonce-/);
  });

  it('signs a new member in, clears the attempt and opens a session', async () => {
    const { cookie, state } = await start();
    t.provider.next = identity('new.member@example.com');
    const answer = await callback(`code=abc&state=${state}`, cookie);
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe('/');
    const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
    expect(cookies.find((c) => c.startsWith('lb_oidc=;'))).toMatch(/Expires=Thu, 01 Jan 1970/);
    const session = cookies.find((c) => c.startsWith('lb_session='))?.split(';')[0] as string;
    const me = await t.withSso.inject({
      method: 'GET',
      url: '/api/ui/session',
      headers: { cookie: session },
    });
    expect(me.json()).toMatchObject({ data: { email: 'new.member@example.com', role: 'member' } });
    expect(t.provider.completed.at(-1)).toBe(`?code=abc&state=${state}`);
  });

  it.each([
    ['/boards/brd_1?lane=2', '/boards/brd_1?lane=2'],
    ['//evil.example/x', '/'],
    ['https://evil.example/', '/'],
    ['/\\evil.example', '/'],
  ])('lands on next=%s as %s after signing in (only paths of this site)', async (next, landing) => {
    const { cookie, state } = await start(`?next=${encodeURIComponent(next)}`);
    t.provider.next = identity(`next${Math.random().toString(36).slice(2)}@example.com`);
    expect((await callback(`code=c&state=${state}`, cookie)).headers.location).toBe(landing);
  });

  it.each([
    ['no attempt cookie', async () => ({ query: 'code=abc&state=state-1', cookie: undefined })],
    [
      'an altered cookie',
      async () => {
        const { cookie, state } = await start();
        return { query: `code=abc&state=${state}`, cookie: `${cookie.slice(0, -4)}AAAA` };
      },
    ],
    [
      'another state than the sealed one',
      async () => {
        const { cookie } = await start();
        return { query: 'code=abc&state=forged', cookie };
      },
    ],
    [
      'no state at all',
      async () => {
        const { cookie } = await start();
        return { query: 'code=abc', cookie };
      },
    ],
  ])('refuses %s before the provider is asked', async (_what, attempt) => {
    const { query, cookie } = await attempt();
    const asked = t.provider.completed.length;
    const answer = await callback(query, cookie);
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe('/login?sso_error=state');
    expect(t.provider.completed.length).toBe(asked);
  });

  it('passes the provider’s refusal on as its reason, and a domain refusal writes nobody', async () => {
    let { cookie, state } = await start();
    t.provider.next = { ok: false, reason: 'code_rejected', detail: 'invalid_grant' };
    expect((await callback(`code=used&state=${state}`, cookie)).headers.location).toBe(
      '/login?sso_error=code_rejected',
    );

    ({ cookie, state } = await start());
    t.provider.next = identity('stranger@elsewhere.example');
    const before = await t.db.database.kysely.selectFrom('users').select('id').execute();
    expect((await callback(`code=c&state=${state}`, cookie)).headers.location).toBe(
      '/login?sso_error=domain_not_allowed',
    );
    expect(await t.db.database.kysely.selectFrom('users').select('id').execute()).toEqual(before);
  });
});
