import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extApi, type OwnerWorld, openOwnerWorld, signedInPage } from './fixtures.js';
import { expectAccessible, newContext, PASSWORD, pageOverflow, screenshot, uiApi } from './support.js';

describe('Settings › Agents in the browser', { timeout: 90_000 }, () => {
  let world: OwnerWorld;
  let page: Page;
  /** The agent's key the page creates, shown once. */
  let key: string;

  const ext = (path: string) => extApi(world.server.baseUrl, key)('GET', path);
  const agentRow = () => page.getByRole('listitem', { name: /bot$/ }).first();

  beforeAll(async () => {
    world = await openOwnerWorld();
    ({ page } = world);
    expect((await uiApi(page, 'POST', '/boards', { name: 'Roadmap' })).status).toBe(201);
    expect((await uiApi(page, 'POST', '/boards', { name: 'Ops' })).status).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('shows Agents in the Settings menu of an owner, with an empty list', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Agents' }).click();
    await page.waitForURL('**/settings/agents');
    await page.getByText('No agents yet').waitFor();
    await expectAccessible(page, 'empty agents page');
  });

  it('creates an agent, refusing an empty name with the server’s message', async () => {
    await page.getByRole('button', { name: 'Create agent' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect.poll(() => dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Name').getAttribute('maxlength')).toBe('200');
    await dialog.getByLabel('Name').fill('Release bot');
    await dialog.getByLabel(/Description/).fill('Cuts releases every Friday.');
    await expectAccessible(page, 'create agent dialog');
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = agentRow();
    await row.getByRole('heading', { name: 'Release bot' }).waitFor();
    await row.getByText('Cuts releases every Friday.').waitFor();
    await row.getByText('Active').waitFor();
    await row.getByText(/No keys yet/).waitFor();
  });

  it('creates a key for the agent, shown once, which acts as the agent on the chosen board', async () => {
    await page.getByRole('button', { name: 'New key for Release bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Key name').fill('CI runner');
    await dialog.getByLabel('Chosen boards').check();
    await dialog.getByLabel('Roadmap').selectOption('edit');
    await expectAccessible(page, 'new agent key dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    key = await dialog.getByLabel('API key', { exact: true }).inputValue();
    expect(key).toMatch(/^ak_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    const keyRow = agentRow().getByRole('listitem', { name: 'CI runner' });
    const prefix = (await keyRow.locator('code').textContent())?.replace('…', '') ?? '';
    expect(prefix.length).toBeGreaterThan(3);
    expect(key.startsWith(prefix)).toBe(true);
    await keyRow.getByText('Roadmap').waitFor();
    const boards = (await (await ext('/boards')).json()) as { data: { name: string }[] };
    expect(boards.data.map((board) => board.name)).toEqual(['Roadmap']);
    // The key is the agent's, not the person's who made it.
    const agentKeys = await uiApi(page, 'GET', '/keys');
    const listed = (agentKeys.body as { data: { name: string; owner: unknown; agent: unknown }[] }).data;
    expect(listed.find((k) => k.name === 'CI runner')).toMatchObject({
      owner: null,
      agent: { id: expect.stringMatching(/^agt_/), name: expect.any(String) },
    });
  });

  it('reveals the agent’s key again after the password', async () => {
    await page.getByRole('button', { name: 'Reveal CI runner' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Reveal key' }).click();
    expect(await dialog.getByLabel('API key', { exact: true }).inputValue()).toBe(key);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('renames the agent and edits its description', async () => {
    await page.getByRole('button', { name: 'Edit Release bot' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Deploy bot');
    await dialog.getByLabel(/Description/).fill('Deploys main after every merge.');
    await dialog.getByRole('button', { name: 'Save agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    await agentRow().getByRole('heading', { name: 'Deploy bot' }).waitFor();
    await agentRow().getByText('Deploys main after every merge.').waitFor();
    await page.getByRole('heading', { name: 'Release bot' }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'agents page with an agent and its key');
    await screenshot(page, 'settings-agents');
  });

  it('looks right dark and on a phone', async () => {
    for (const options of [{ dark: true }, { phone: true }]) {
      const other = await signedInPage(world, options);
      try {
        await other.goto('/settings/agents');
        await other.getByRole('heading', { name: 'Deploy bot' }).waitFor();
        await other.getByRole('listitem', { name: 'CI runner' }).waitFor();
        await expectAccessible(other, `agents page (${JSON.stringify(options)})`);
        if (options.phone) {
          const { scrollWidth, clientWidth } = await pageOverflow(other);
          expect(scrollWidth - clientWidth).toBe(0);
        }
        await screenshot(other, options.dark ? 'settings-agents-dark' : 'settings-agents-phone');
      } finally {
        await other.context().close();
      }
    }
  });

  it('deactivates the agent after a confirmation that says its key goes', async () => {
    await page.getByRole('button', { name: 'Deactivate Deploy bot' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/Its 1 API key is revoked/).waitFor();
    await expectAccessible(page, 'deactivate agent dialog');
    await dialog.getByRole('button', { name: 'Deactivate agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    await agentRow().getByText('Deactivated').waitFor();
    await page.getByRole('button', { name: 'Edit Deploy bot' }).waitFor({ state: 'detached' });
    expect((await ext('/boards')).status).toBe(401);
    const keys = (await uiApi(page, 'GET', '/keys')).body as { data: { name: string }[] };
    expect(keys.data.map((k) => k.name)).not.toContain('CI runner');
  });

  it('shows a member no Agents entry, and the page refuses them', async () => {
    const invite = await uiApi(page, 'POST', '/invites', { role: 'member' });
    expect(invite.status).toBe(201);
    const url = (invite.body as { data: { url: string } }).data.url;
    const context = await newContext(world.browser, world.server.baseUrl);
    try {
      const member = await context.newPage();
      await member.goto(url);
      await member.getByLabel('Name').fill('Max Member');
      await member.getByLabel('Email').fill('max@example.com');
      await member.getByLabel('Password').fill(PASSWORD);
      await member.getByRole('button', { name: 'Create account' }).click();
      await member.waitForURL((u) => u.pathname === '/');
      await member.goto('/settings/keys');
      const menu = member.getByRole('navigation', { name: 'Settings' });
      await menu.getByRole('link', { name: 'API Keys' }).waitFor();
      expect(await menu.getByRole('link', { name: 'Agents' }).count()).toBe(0);
      await member.goto('/settings/agents');
      await member.getByText(/Only owners and admins can open this page/).waitFor();
      expect(await member.getByRole('heading', { name: 'Deploy bot' }).count()).toBe(0);
      expect((await uiApi(member, 'GET', '/agents')).status).toBe(403);
    } finally {
      await context.close();
    }
  });
});
