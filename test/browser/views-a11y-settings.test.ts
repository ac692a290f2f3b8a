import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { addMember, createAgentWithKey, extApi, type OwnerWorld, openOwnerWorld } from './fixtures.js';
import { createdId, OWNER, uiApi } from './support.js';
import { checkView, MODES, openMode, startSnapshotServer } from './views-a11y-support.js';

/**
 * Issue 27: the inbox, search (results page and palette) and the settings views changed lately (a
 * paused webhook in the list and on its page, the delivery log naming board and task and what a
 * redelivery repeats, the Reveal dialog's wrong-password wording, agents, people), each in light, dark
 * and at 390 px, and what a member sees of an admins' page: no serious or critical axe violation (others printed), no sideways scroll on a phone, and the pictures the docs lacked.
 */
describe('inbox, search and settings views in three modes', { timeout: 300_000 }, () => {
  let world: OwnerWorld;
  let receiver: WebhookReceiver;
  let webhookId: string;
  let taskId: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // A step gets 30 s on a loaded machine: see openMode.
    world = await openOwnerWorld({ start: startSnapshotServer, timeout: 30_000 });
    const { page } = world;
    const boardId = createdId(await uiApi(page, 'POST', '/boards', { name: 'Roadmap' }));
    const created = await uiApi(page, 'POST', '/keys', { name: 'CI', allBoards: true, grants: [] });
    const ci = (created.body as { data: { id: string; key: string } }).data;
    const { key: agentKey } = await createAgentWithKey(page, { agent: 'Claude', key: 'claude' });
    const ext = async (key: string, method: string, path: string, body?: unknown) => {
      const res = await extApi(world.server.baseUrl, key)(method, `/boards/${boardId}${path}`, body);
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return res.status === 204 ? null : ((await res.json()) as { data: { id: string } }).data;
    };
    webhookId = createdId(
      await uiApi(page, 'POST', '/webhooks', { url: receiver.url(), apiKeyId: ci.id, events: ['*'] }),
    );
    // Deliveries about a lane and a task, then one delivery redelivered.
    const lane = await ext(ci.key, 'POST', '/lanes', { name: 'Todo' });
    taskId = (await ext(ci.key, 'POST', '/tasks', {
      title: 'Fix the login bug on Safari',
      laneId: lane!.id,
    }))!.id;
    await receiver.waitFor(2);
    const deliveries = (
      (await uiApi(page, 'GET', `/webhooks/${webhookId}`)).body as { data: { deliveries: { id: string }[] } }
    ).data.deliveries;
    const redelivered = await uiApi(
      page,
      'POST',
      `/webhooks/${webhookId}/deliveries/${deliveries.at(-1)!.id}/redeliver`,
    );
    expect(redelivered.status).toBeLessThan(300);
    await receiver.waitFor(3);
    expect((await uiApi(page, 'PATCH', `/webhooks/${webhookId}`, { active: false })).status).toBe(200);

    // The inbox: an agent's assignment and mention, and a comment to find by search.
    const me = ((await uiApi(page, 'GET', '/session')).body as { data: { id: string } }).data.id;
    await ext(agentKey, 'PUT', `/tasks/${taskId}/assignees/${me}`);
    await ext(agentKey, 'POST', `/tasks/${taskId}/comments`, {
      body: '@Ada Owner the cookie path is fixed; the zanzibar check passes on staging.',
      authorName: 'Claude',
    });

    // A member, as in people.test.ts, so the dark People picture matches the light one.
    await addMember(world, page, { name: 'Max Member', email: 'max@example.com' });
    await page.context().close();
  }, 240_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  for (const mode of MODES) {
    it(`the inbox and search (${mode.name})`, async () => {
      const page = await openMode(world.browser, world.server.baseUrl, mode, OWNER.email);
      try {
        // Pictures of these three exist (inbox.test.ts, search-palette.test.ts): axe and width only here.
        await page.goto('/inbox');
        await page.getByRole('listitem').filter({ hasText: 'Claude mentioned you in' }).waitFor();
        await checkView(page, mode, 'inbox', { picture: false });

        await page.goto('/search?q=zanzibar');
        await page.getByRole('region', { name: 'Results' }).locator('mark').first().waitFor();
        await checkView(page, mode, 'search-results', { picture: false });

        await page.keyboard.press('Control+k');
        const palette = page.getByRole('dialog', { name: 'Search and commands' });
        await palette.getByRole('combobox').fill('zanzibar');
        await palette.locator('[role=listbox]:not([aria-busy]) mark').first().waitFor();
        await checkView(page, mode, 'search-palette', { picture: false });
        await page.keyboard.press('Escape');
      } finally {
        await page.context().close();
      }
    });

    it(`webhooks, the delivery log, Reveal, agents and people (${mode.name})`, async () => {
      const page = await openMode(world.browser, world.server.baseUrl, mode, OWNER.email);
      try {
        await page.goto('/settings/webhooks');
        await page.getByText('Paused', { exact: true }).waitFor();
        await page.getByText(/^Paused: events that happen now are dropped, not sent after Resume/).waitFor();
        await checkView(page, mode, 'settings-webhooks-paused');

        await page.goto(`/settings/webhooks/${webhookId}`);
        await page
          .getByRole('note')
          .getByText(/events that happen while it is paused are dropped/)
          .waitFor();
        const log = page.getByRole('tabpanel');
        await log.getByText(/redelivery of \S+/).waitFor();
        await log
          .getByText(/› \S+ Fix the login bug on Safari$/)
          .first()
          .waitFor();
        await checkView(page, mode, 'settings-webhook-log');

        await page.goto('/settings/keys');
        await page.getByRole('button', { name: 'Reveal CI' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Your password').fill('not my password');
        await dialog.getByRole('button', { name: 'Reveal key' }).click();
        await dialog
          .getByRole('alert')
          .getByText(/^The password is incorrect\./)
          .waitFor();
        await checkView(page, mode, 'settings-key-reveal', { window: true });
        await page.keyboard.press('Escape');

        // Agents' pictures exist in all three modes (settings-agents.test.ts).
        await page.goto('/settings/agents');
        await page.getByRole('listitem', { name: 'claude', exact: true }).waitFor();
        await checkView(page, mode, 'settings-agents', { picture: false });

        // People: light and phone pictures exist (people.test.ts, people-phone.test.ts); dark did not.
        await page.goto('/settings/people');
        await page.getByRole('listitem', { name: 'Max Member' }).waitFor();
        await checkView(page, mode, 'settings-people', { picture: mode.name === 'dark' });
      } finally {
        await page.context().close();
      }
    });

    it(`a settings page for owners and admins, opened by a member (${mode.name})`, async () => {
      const page = await openMode(world.browser, world.server.baseUrl, mode, 'max@example.com');
      try {
        await page.goto('/settings/webhooks');
        await page.getByRole('heading', { level: 1, name: 'Owners and admins only' }).waitFor();
        await page
          .getByRole('alert')
          .getByText(/^Only owners and admins can open this page\./)
          .waitFor();
        await checkView(page, mode, 'settings-admins-only');
      } finally {
        await page.context().close();
      }
    });
  }
});
