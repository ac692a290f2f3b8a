import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import {
  buildUiTestApp,
  expectErrorCode,
  GOOD_PASSWORD,
  OPERATOR,
  ORIGIN,
  useUiTestApp,
} from './ui-support.js';

const DAY = 24 * 3_600_000;

describeEachDialect('web UI sessions', (dialect) => {
  const t = useUiTestApp(dialect, { throttle: { perAccount: 3, perAddress: 6, windowMs: 15 * 60_000 } });

  it('offers setup once, creates the owner, signs them in with a safe cookie', async () => {
    const b = t.browser();
    expect((await b.request('GET', '/api/ui/setup')).json()).toEqual({ data: { needed: true } });
    const weak = await b.request('POST', '/api/ui/setup', {
      email: 'o@example.com',
      name: 'O',
      password: 'short',
    });
    expectErrorCode(weak, 400, 'validation_error');
    expect(weak.json().error.message).toContain('`password`');
    const common = await b.request('POST', '/api/ui/setup', {
      email: 'o@example.com',
      name: 'O',
      password: 'Password123',
    });
    expect(common.json().error.message).toContain('too common');

    const created = await b.request('POST', '/api/ui/setup', {
      email: 'Owner@Example.com',
      name: 'Olga',
      password: GOOD_PASSWORD,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({
      email: 'Owner@Example.com',
      name: 'Olga',
      role: 'owner',
      active: true,
    });
    const setCookie = String(created.headers['set-cookie']);
    expect(setCookie).toMatch(/^lb_session=[0-9A-Za-z]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    expect((await b.request('GET', '/api/ui/session')).json().data.name).toBe('Olga');

    expect((await t.browser().request('GET', '/api/ui/setup')).json()).toEqual({ data: { needed: false } });
    const again = await t.browser().request('POST', '/api/ui/setup', {
      email: 'x@example.com',
      name: 'X',
      password: GOOD_PASSWORD,
    });
    expectErrorCode(again, 409, 'conflict');
    // Emails are unique whatever their case.
    await expect(
      t.services.people.createPerson(OPERATOR, {
        email: 'OWNER@example.com',
        name: 'Dup',
        password: GOOD_PASSWORD,
        role: 'member',
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('answers 401 unauthenticated without a session, and signs out', async () => {
    const anonymous = t.browser();
    expectErrorCode(await anonymous.request('GET', '/api/ui/session'), 401, 'unauthenticated');
    expectErrorCode(await anonymous.request('GET', '/api/ui/boards'), 401, 'unauthenticated');
    expectErrorCode(await anonymous.request('GET', '/api/ui/keys'), 401, 'unauthenticated');
    const forged = t.browser();
    forged.cookie = 'not-a-session';
    expectErrorCode(await forged.request('GET', '/api/ui/session'), 401, 'unauthenticated');

    const { browser } = await t.person('member');
    const stolen = browser.cookie;
    const out = await browser.request('DELETE', '/api/ui/session');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/lb_session=;/);
    const replay = t.browser();
    replay.cookie = stolen;
    expectErrorCode(await replay.request('GET', '/api/ui/session'), 401, 'unauthenticated');
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const { email } = await t.person('member');
    const wrong = await t
      .browser()
      .request('POST', '/api/ui/session', { email, password: 'wrong password!' });
    const unknown = await t.browser().request('POST', '/api/ui/session', {
      email: 'nobody@example.com',
      password: 'wrong password!',
    });
    expectErrorCode(wrong, 401, 'invalid_credentials');
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    const ok = await t
      .browser()
      .request('POST', '/api/ui/session', { email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(ok.statusCode).toBe(200);
  });

  it('throttles sign-in per account, even with the right password, until the window passes', async () => {
    const { email } = await t.person('member');
    for (let i = 0; i < 3; i++) {
      const r = await t.browser().request(
        'POST',
        '/api/ui/session',
        { email, password: `wrong guess ${i}` },
        {
          'x-forwarded-for': `198.51.100.${i}`,
        },
      );
      expectErrorCode(r, 401, 'invalid_credentials');
    }
    const blocked = await t.browser().request('POST', '/api/ui/session', { email, password: GOOD_PASSWORD });
    expectErrorCode(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    t.clock.advance(15 * 60_000 + 1);
    const later = await t.browser().request('POST', '/api/ui/session', { email, password: GOOD_PASSWORD });
    expect(later.statusCode).toBe(200);
  });

  it('throttles sign-in per address across accounts', async () => {
    t.clock.advance(16 * 60_000);
    for (let i = 0; i < 6; i++) {
      const r = await t.browser().request('POST', '/api/ui/session', {
        email: `guess${i}@example.com`,
        password: 'wrong password!',
      });
      expectErrorCode(r, 401, 'invalid_credentials');
    }
    const { email } = await t.person('member').catch(() => ({ email: '' }));
    // person() signs in from the same address, so it is refused too.
    expect(email).toBe('');
    const blocked = await t.browser().request('POST', '/api/ui/session', {
      email: 'guess0@example.com',
      password: 'wrong password!',
    });
    expectErrorCode(blocked, 429, 'rate_limited');
    t.clock.advance(15 * 60_000 + 1);
  });

  it('expires sessions after the TTL without use, and slides the expiry with use', async () => {
    const { browser } = await t.person('member');
    t.clock.advance(13 * DAY);
    expect((await browser.request('GET', '/api/ui/session')).statusCode).toBe(200);
    t.clock.advance(13 * DAY);
    // 26 days after sign-in, but only 13 since last use.
    expect((await browser.request('GET', '/api/ui/session')).statusCode).toBe(200);
    t.clock.advance(14 * DAY + 1);
    expectErrorCode(await browser.request('GET', '/api/ui/session'), 401, 'unauthenticated');
  });

  it('refuses state-changing requests from another origin or without Origin', async () => {
    const { browser } = await t.person('member');
    const evil = await browser.request(
      'POST',
      '/api/ui/boards',
      { name: 'x' },
      { origin: 'https://evil.example' },
    );
    expectErrorCode(evil, 403, 'csrf_failed');
    const none = await browser.request('POST', '/api/ui/boards', { name: 'x' }, { origin: '' });
    expectErrorCode(none, 403, 'csrf_failed');
    const signOut = await browser.request('DELETE', '/api/ui/session', undefined, { origin: 'null' });
    expectErrorCode(signOut, 403, 'csrf_failed');
    const sameSite = await browser.request(
      'POST',
      '/api/ui/boards',
      { name: 'x' },
      {
        origin: '',
        'sec-fetch-site': 'same-origin',
      },
    );
    expect(sameSite.statusCode).toBe(201);
    const ok = await browser.request('POST', '/api/ui/boards', { name: 'y' }, { origin: ORIGIN });
    expect(ok.statusCode).toBe(201);
    // Reads are not checked.
    expect(
      (await browser.request('GET', '/api/ui/boards', undefined, { origin: 'https://evil.example' }))
        .statusCode,
    ).toBe(200);
    // Sign-in itself is protected (login CSRF).
    const login = await t.browser().request(
      'POST',
      '/api/ui/session',
      { email: 'a@b.c', password: 'x' },
      {
        origin: 'https://evil.example',
      },
    );
    expectErrorCode(login, 403, 'csrf_failed');
  });

  it('changes the own name and password; a password change ends the other sessions', async () => {
    const { email, browser } = await t.person('member');
    const other = t.browser();
    expect(
      (await other.request('POST', '/api/ui/session', { email, password: GOOD_PASSWORD })).statusCode,
    ).toBe(200);

    const renamed = await browser.request('PATCH', '/api/ui/me', { name: '  Grace  ' });
    expect(renamed.json().data.name).toBe('Grace');

    const wrong = await browser.request('POST', '/api/ui/me/password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new passphrase',
    });
    expectErrorCode(wrong, 401, 'invalid_credentials');
    const weak = await browser.request('POST', '/api/ui/me/password', {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'short',
    });
    expectErrorCode(weak, 400, 'validation_error');
    expect(weak.json().error.message).toContain('`newPassword`');

    const changed = await browser.request('POST', '/api/ui/me/password', {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(changed.statusCode).toBe(204);
    expect((await browser.request('GET', '/api/ui/session')).statusCode).toBe(200);
    expectErrorCode(await other.request('GET', '/api/ui/session'), 401, 'unauthenticated');
    const old = await t.browser().request('POST', '/api/ui/session', { email, password: GOOD_PASSWORD });
    expectErrorCode(old, 401, 'invalid_credentials');
  });
});

describe('web UI session cookie behind a trusted https proxy', () => {
  it('is Secure when the proxy says the request came over https', async () => {
    const t = await buildUiTestApp('sqlite', { trustProxy: true });
    try {
      const b = t.browser();
      const created = await b.request(
        'POST',
        '/api/ui/setup',
        { email: 'o@example.com', name: 'O', password: GOOD_PASSWORD },
        {
          origin: 'https://board.example.com',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'board.example.com',
        },
      );
      expect(created.statusCode).toBe(201);
      expect(String(created.headers['set-cookie'])).toContain('Secure');
      // The Origin is compared with the forwarded scheme and host.
      const plain = await b.request(
        'POST',
        '/api/ui/boards',
        { name: 'b' },
        {
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'board.example.com',
        },
      );
      expectErrorCode(plain, 403, 'csrf_failed');
    } finally {
      await t.close();
    }
  });
});
