import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  OWNER,
  PASSWORD,
  screenshot,
  signIn,
  startUiServer,
  type UiServer,
  uiApi,
} from './support.js';

describe('people, sign-in and roles in the browser', { timeout: 60_000 }, () => {
  let server: UiServer;
  let browser: Browser;
  let ownerContext: BrowserContext;
  let owner: Page;
  let memberContext: BrowserContext;
  let member: Page;

  beforeAll(async () => {
    // One after the other: both at once on a busy machine can outlast the server's start-up wait.
    server = await startUiServer();
    browser = await launchBrowser();
    ownerContext = await newContext(browser, server.baseUrl);
    owner = await ownerContext.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const settingsMenu = (page: Page) => page.getByRole('navigation', { name: 'Settings' });

  it('offers the one-time setup on first visit and signs the owner in', async () => {
    await owner.goto('/');
    await owner.waitForURL('**/setup');
    await expectAccessible(owner, 'setup page');
    // Too short a password: the server's message shows next to the field.
    await owner.getByLabel('Name').fill(OWNER.name);
    await owner.getByLabel('Email').fill(OWNER.email);
    await owner.getByLabel('Password').fill('short');
    await owner.getByRole('button', { name: 'Create owner account' }).click();
    await owner.getByText(/^password must be at least 10 characters/).waitFor();
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Create owner account' }).click();
    await owner.waitForURL('**/settings/keys');
    const menu = settingsMenu(owner);
    for (const entry of ['API Keys', 'Webhooks', 'People']) {
      await menu.getByRole('link', { name: entry }).waitFor();
    }
    expect(await menu.getByRole('link', { name: /API reference/ }).getAttribute('href')).toBe(
      '/api/ext/v1/docs',
    );
  });

  it('refuses a second setup once someone exists', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/setup');
    await page.waitForURL('**/login');
    const again = await uiApi(page, 'POST', '/setup', {
      email: 'eve@example.com',
      name: 'Eve',
      password: PASSWORD,
    });
    expect(again.status).toBe(409);
    await context.close();
  });

  it('signs out, refuses a wrong password or an unknown email with one message, and signs in', async () => {
    await owner.getByRole('button', { name: /account menu/ }).click();
    await owner.getByRole('menuitem', { name: 'Sign out' }).click();
    await owner.waitForURL('**/login');
    expect((await uiApi(owner, 'GET', '/session')).status).toBe(401);
    await expectAccessible(owner, 'sign-in page');

    await signIn(owner, OWNER.email, 'not the password at all');
    const wrong = await owner.getByRole('alert').textContent();
    await signIn(owner, 'nobody@example.com', 'not the password at all');
    const unknown = await owner.getByRole('alert').textContent();
    expect(wrong).toBe('Email or password is incorrect.');
    expect(unknown).toBe(wrong);

    await signIn(owner, OWNER.email);
    await owner.waitForURL((url) => url.pathname === '/');
    await owner.getByRole('heading', { name: 'Boards' }).waitFor();
    await expectAccessible(owner, 'boards page');
    await owner.goto('/no/such/page');
    await owner.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectAccessible(owner, 'not-found page');
  });

  it('sends a signed-out visitor of a settings page to sign-in and back', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    await page.goto('/settings/people');
    await page.waitForURL('**/login?next=%2Fsettings%2Fpeople');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/settings/people');
    await context.close();
  });

  it('lets a person change their name and password', async () => {
    await owner.goto('/profile');
    await owner.getByRole('heading', { name: 'Profile' }).waitFor();
    await expectAccessible(owner, 'profile page');
    await owner.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await owner.getByRole('button', { name: 'Save name' }).click();
    await owner.getByRole('button', { name: /Ada Lovelace.*account menu/ }).waitFor();

    // Two new passwords that differ: said at the repeat, gone while it is edited, said again on submit.
    await owner.getByLabel('Current password').fill('wrong current password');
    await owner.getByLabel('New password', { exact: true }).fill(`${PASSWORD}!`);
    await owner.getByLabel('Repeat the new password').fill(`${PASSWORD}?`);
    await owner.getByRole('button', { name: 'Change password' }).click();
    const differ = owner.getByText('The two new passwords differ.');
    await differ.waitFor();
    await owner.getByLabel('Repeat the new password').fill(`${PASSWORD}.`);
    await differ.waitFor({ state: 'detached' });
    await owner.getByRole('button', { name: 'Change password' }).click();
    await differ.waitFor();
    await owner.getByLabel('Repeat the new password').fill(`${PASSWORD}!`);
    await owner.getByRole('button', { name: 'Change password' }).click();
    await owner
      .getByRole('alert')
      .filter({ hasText: /incorrect/i })
      .waitFor();
    // Back to the original password in two steps, so the other tests keep using it.
    for (const [from, to] of [
      [PASSWORD, `${PASSWORD}!`],
      [`${PASSWORD}!`, PASSWORD],
    ] as const) {
      await owner.getByLabel('Current password').fill(from);
      await owner.getByLabel('New password', { exact: true }).fill(to);
      await owner.getByLabel('Repeat the new password').fill(to);
      await owner.getByRole('button', { name: 'Change password' }).click();
      await owner
        .getByText(/Password changed/)
        .first()
        .waitFor();
      await owner
        .getByText(/Password changed/)
        .first()
        .waitFor({ state: 'detached' });
    }
    // The tab that changed it stays signed in.
    expect((await uiApi(owner, 'GET', '/session')).status).toBe(200);
  });

  it('invites a member with a link that works once', async () => {
    await owner.goto('/settings/people');
    await owner.getByRole('heading', { name: 'People' }).waitFor();
    await owner.getByRole('button', { name: 'Invite' }).click();
    await owner.getByLabel('Role', { exact: true }).selectOption('member');
    await owner.getByRole('button', { name: 'Create invite link' }).click();
    const link = await owner.getByLabel('Invite link', { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/invite/`));
    await owner.getByRole('button', { name: 'Done' }).click();

    memberContext = await newContext(browser, server.baseUrl, { phone: true });
    member = await memberContext.newPage();
    await member.goto(link);
    await member.getByText(/invited as member/).waitFor();
    await expectAccessible(member, 'invite page');
    await member.getByLabel('Name').fill('Max Member');
    await member.getByLabel('Email').fill('max@example.com');
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.waitForURL((url) => url.pathname === '/');

    const stranger = await newContext(browser, server.baseUrl);
    const page = await stranger.newPage();
    await page.goto(link);
    await page.getByText('This invite link is invalid, used or expired.').waitFor();
    await stranger.close();

    await owner.reload();
    await owner.getByRole('listitem', { name: 'Max Member' }).waitFor();
    await screenshot(owner, 'settings-people');
    await expectAccessible(owner, 'people page');
  });

  it('shows a member no Webhooks or People menu, and their endpoints answer 403', async () => {
    await member.goto('/settings/keys');
    const menu = settingsMenu(member);
    await menu.getByRole('link', { name: 'API Keys' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'People' }).count()).toBe(0);
    for (const path of ['/webhooks', '/people', '/invites']) {
      const res = await uiApi(member, 'GET', path);
      expect(res.status, path).toBe(403);
      expect((res.body as { error: { code: string } }).error.code).toBe('forbidden');
    }
    expect((await uiApi(member, 'POST', '/invites', { role: 'admin' })).status).toBe(403);
    await member.goto('/settings/webhooks');
    await member.getByText('Only owners and admins can open this page.', { exact: false }).waitFor();
    await member.getByRole('heading', { level: 1, name: 'Owners and admins only' }).waitFor();
    await expectAccessible(member, 'keys page at phone width (member)');
  });

  it('an owner makes the member an admin, who then sees the menus', async () => {
    await owner.getByLabel('Role of Max Member').selectOption('admin');
    await owner.getByText('Max Member is now admin').waitFor();
    await member.reload();
    await settingsMenu(member).getByRole('link', { name: 'Webhooks' }).waitFor();
    expect((await uiApi(member, 'GET', '/webhooks')).status).toBe(200);
  });

  it('refuses to demote the last owner', async () => {
    const people = (await uiApi(owner, 'GET', '/people')).body as { data: { id: string; email: string }[] };
    const me = people.data.find((p) => p.email === OWNER.email)!;
    const res = await uiApi(owner, 'PATCH', `/people/${me.id}`, { role: 'admin' });
    expect(res.status).toBe(409);
  });

  it('deactivating a person signs them out', async () => {
    await owner.getByRole('button', { name: 'Deactivate Max Member' }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
    await owner.getByText('Max Member deactivated').waitFor();
    await member.goto('/settings/keys');
    await member.waitForURL('**/login**');
  });

  it('throttles sign-in after repeated failures for an account', async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    // The account may already hold a counted failure (a wrong current password on the profile page).
    const answers: string[] = [];
    for (let i = 0; i < 6 && !answers.at(-1)?.startsWith('Too many'); i++) {
      await signIn(page, OWNER.email, `wrong password ${i}`);
      answers.push((await page.getByRole('alert').textContent()) ?? '');
    }
    expect(answers.at(-1)).toMatch(/^Too many sign-in attempts/);
    // Refused even with the right password while throttled.
    await signIn(page, OWNER.email);
    await page
      .getByRole('alert')
      .filter({ hasText: /Too many sign-in attempts/ })
      .waitFor();
    await context.close();
  });
});
