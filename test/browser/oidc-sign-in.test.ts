import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServerStartError, startServer } from '../support/built-server.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type IdentityProvider,
  startIdentityProvider,
  type TestAccount,
} from '../support/identity-provider.js';
import { type OwnerWorld, openOwnerWorld } from './fixtures.js';
import {
  expectAccessible,
  newContext,
  OWNER,
  PASSWORD,
  screenshot,
  setUpOwner,
  startUiServer,
  type UiServer,
  uiApi,
} from './support.js';

function ssoEnv(port: number, idp: IdentityProvider, extra: Record<string, string> = {}) {
  return {
    PORT: String(port),
    LANEBOARD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    LANEBOARD_OIDC_ISSUER: idp.issuer,
    LANEBOARD_OIDC_CLIENT_ID: CLIENT_ID,
    LANEBOARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    LANEBOARD_OIDC_ALLOWED_DOMAINS: 'example.com',
    ...extra,
  };
}

/** Signs in at the identity provider's login form as `login` (the form takes any password). */
async function loginAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

/** The refusal shown on the sign-in page: words, not a JSON body or a stack trace. */
async function expectRefusal(page: Page, reason: string, words: RegExp): Promise<void> {
  await page.waitForURL(`**/login?sso_error=${reason}`);
  await expect.poll(() => page.getByRole('alert').textContent()).toMatch(words);
  const text = (await page.locator('body').textContent()) ?? '';
  expect(text).not.toMatch(/"error"|\{"|\bat \S+\.js:\d+|Error:/);
  expect(await uiApi(page, 'GET', '/session')).toMatchObject({ status: 401 });
}

describe('single sign-on with OpenID Connect in the browser', { timeout: 90_000 }, () => {
  let idp: IdentityProvider;
  let world: OwnerWorld;
  let server: UiServer;
  let passwordOffServer: UiServer;
  let browser: Browser;
  let owner: Page;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const [port, passwordOffPort] = [await freePort(), await freePort()];
    idp = await startIdentityProvider(
      [port, passwordOffPort].map((p) => `http://127.0.0.1:${p}/api/ui/oidc/callback`),
    );
    world = await openOwnerWorld({ env: ssoEnv(port, idp) });
    ({ server, browser, page: owner } = world);
    passwordOffServer = await startUiServer(
      ssoEnv(passwordOffPort, idp, { LANEBOARD_OIDC_PASSWORD_SIGNIN: 'false' }),
    );
  }, 420_000);
  afterAll(async () => {
    await world?.close();
    await passwordOffServer?.close();
    await idp?.close();
  });

  /** A new browser (no cookies) at Laneboard's sign-in page; the account as the provider will describe it. */
  async function visitor(login: string, account: TestAccount, base = server.baseUrl): Promise<Page> {
    idp.accounts.set(login, account);
    const context = await newContext(browser, base);
    contexts.push(context);
    return context.newPage();
  }

  async function startSso(page: Page, path = '/login'): Promise<void> {
    await page.goto(path);
    await page.getByRole('link', { name: /Sign in with SSO|Join with SSO/ }).click();
  }

  /** Back at Laneboard, signed in (the app may move on from `/` by itself). */
  async function landed(page: Page, base = server.baseUrl): Promise<void> {
    await page.waitForURL((url) => url.origin === base && !url.pathname.startsWith('/api/'));
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  }

  const peopleEmails = async () =>
    ((await uiApi(owner, 'GET', '/people')).body as { data: { email: string }[] }).data.map((p) => p.email);

  it('offers "Sign in with SSO" beside the password form (light and dark)', async () => {
    const page = await visitor('nobody', {});
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    await page.getByLabel('Password').waitFor();
    expect(await uiApi(page, 'GET', '/sign-in-options')).toEqual({
      status: 200,
      body: { data: { sso: true, passwordSignIn: true } },
    });
    await expectAccessible(page, 'sign-in page with SSO');
    await screenshot(page, 'login-sso');
    const dark = await (await newContext(browser, server.baseUrl, { dark: true })).newPage();
    await dark.goto('/login');
    await dark.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    await expectAccessible(dark, 'sign-in page with SSO, dark');
    await screenshot(dark, 'login-sso-dark');
    await dark.context().close();
  });

  it('creates a member for a verified email in an allowed domain, and signs them in again by subject', async () => {
    const page = await visitor('grace', {
      email: 'grace@example.com',
      email_verified: true,
      name: 'Grace Hopper',
    });
    await startSso(page);
    await loginAtProvider(page, 'grace');
    await landed(page);
    const me = await uiApi(page, 'GET', '/session');
    expect(me).toMatchObject({ status: 200, body: { data: { name: 'Grace Hopper', role: 'member' } } });
    expect(await peopleEmails()).toContain('grace@example.com');

    // Signed out, the same account comes back as the same person, whatever email it shows now (the
    // provider remembers its own session, so no login form this time).
    await uiApi(page, 'DELETE', '/session');
    idp.accounts.set('grace', { email: 'grace.hopper@example.com', email_verified: true, name: 'G' });
    await startSso(page);
    await landed(page);
    expect((await uiApi(page, 'GET', '/session')).body).toMatchObject({
      data: { id: (me.body as { data: { id: string } }).data.id },
    });
  });

  it('links an invited person from the invite link, with the invite role, whatever the domain', async () => {
    const invite = await uiApi(owner, 'POST', '/invites', { role: 'admin' });
    const { url } = (invite.body as { data: { url: string } }).data;
    const page = await visitor('linus', {
      email: 'linus@partner.example',
      email_verified: true,
      name: 'Linus',
    });
    await startSso(page, url);
    await loginAtProvider(page, 'linus');
    await landed(page);
    expect((await uiApi(page, 'GET', '/session')).body).toMatchObject({
      data: { email: 'linus@partner.example', role: 'admin' },
    });
  });

  /** The provider's redirect back to Laneboard, as the page follows it (a redirect: not routable). */
  function recordCallback(page: Page): () => string {
    let callback = '';
    page.on('request', (request) => {
      if (request.url().includes('/api/ui/oidc/callback')) callback = request.url();
    });
    return () => callback;
  }

  const attemptCookie = async (page: Page): Promise<Cookie | undefined> =>
    (await page.context().cookies()).find((cookie) => cookie.name === 'lb_oidc');

  it('refuses a callback that another browser started (login CSRF): its state is not this one', async () => {
    // The attacker signs in at the provider and keeps the redirect back instead of using it.
    const attacker = await visitor('sam', { email: 'sam@elsewhere.example', email_verified: true });
    const callbackOf = recordCallback(attacker);
    await startSso(attacker);
    await loginAtProvider(attacker, 'sam');
    await expect.poll(callbackOf).toContain('state=');

    // The victim has an attempt of their own going, and is sent to the attacker's redirect.
    const victim = await visitor('nobody', {});
    await startSso(victim);
    await victim.locator('input[name="login"]').waitFor();
    expect(await attemptCookie(victim)).toBeDefined();
    await victim.goto(callbackOf());
    await expectRefusal(victim, 'state', /expired or was not started from this page/);

    // A forged state with the victim's own attempt: the same.
    const forged = new URL(callbackOf());
    forged.searchParams.set('state', 'forged-state');
    await startSso(victim);
    await victim.goto(forged.href);
    await expectRefusal(victim, 'state', /expired or was not started from this page/);
    expect(await peopleEmails()).not.toContain('sam@elsewhere.example');
  });

  it('refuses a replayed code, even with the attempt cookie that came with it', async () => {
    const page = await visitor('rita', { email: 'rita@example.com', email_verified: true });
    const callbackOf = recordCallback(page);
    await startSso(page);
    const attempt = await attemptCookie(page);
    expect(attempt?.httpOnly).toBe(true);
    await loginAtProvider(page, 'rita');
    await landed(page);
    expect(await attemptCookie(page)).toBeUndefined();

    // Someone who copied both the redirect and the cookie tries them again in another browser.
    const thief = await visitor('rita', { email: 'rita@example.com', email_verified: true });
    await thief.context().addCookies([attempt as Cookie]);
    await thief.goto(callbackOf());
    await expectRefusal(thief, 'code_rejected', /already used or has expired/);
  });

  it('refuses an email the provider has not verified, and writes nothing', async () => {
    const page = await visitor('mallory', { email: 'mallory@example.com', email_verified: false });
    await startSso(page);
    await loginAtProvider(page, 'mallory');
    await expectRefusal(page, 'email_unverified', /not verified at the identity provider/);
    await expectAccessible(page, 'sign-in page with an SSO refusal');
    expect(await peopleEmails()).not.toContain('mallory@example.com');
  });

  it('refuses an email whose domain may not join, and writes nothing', async () => {
    const page = await visitor('eve', { email: 'eve@evil.example', email_verified: true });
    await startSso(page);
    await loginAtProvider(page, 'eve');
    await expectRefusal(page, 'domain_not_allowed', /not in a domain that may join.*invite/);
    await screenshot(page, 'login-sso-refused');
    expect(await peopleEmails()).not.toContain('eve@evil.example');
  });

  it('with password sign-in off, hides the password form but keeps an owner sign-in', async () => {
    const setup = await (await newContext(browser, passwordOffServer.baseUrl)).newPage();
    await setUpOwner(setup, OWNER);
    await setup.context().close();

    const page = await visitor('nobody', {}, passwordOffServer.baseUrl);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    await screenshot(page, 'login-sso-only');
    await page.getByRole('button', { name: 'Owner sign-in' }).click();
    await signInHere(page, OWNER.email);
    await landed(page, passwordOffServer.baseUrl);
    expect((await uiApi(page, 'GET', '/session')).body).toMatchObject({ data: { role: 'owner' } });
  });

  it('does not start when the issuer does not answer discovery, naming LANEBOARD_OIDC_ISSUER', async () => {
    const closedPort = await freePort();
    const port = await freePort();
    const start = startServer(
      ssoEnv(
        port,
        { ...idp, issuer: `http://127.0.0.1:${closedPort}` },
        { LANEBOARD_DATA_DIR: '/nonexistent' },
      ),
    );
    await expect(start).rejects.toBeInstanceOf(ServerStartError);
    await expect(start).rejects.toThrow(/exited \(1\).*LANEBOARD_OIDC_ISSUER/s);
  });
});

/** The password form on the page as it is (the owner sign-in shows it in place). */
async function signInHere(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
