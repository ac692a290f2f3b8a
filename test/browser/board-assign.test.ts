import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  type BoardWorld,
  createAgentWithKey,
  type ExtApi,
  extApi,
  openBoardWorld,
  signedInPage,
} from './fixtures.js';
import { createdId, expectAccessible, screenshot, uiApi } from './support.js';

/** Assigning people and agents on the board and the task page (issues 26 and 27). */
describe('assigning on the board', { timeout: 90_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  let receiver: WebhookReceiver;
  /** The external API with the agent's own key: its changes are the agent's. */
  let asAgent: ExtApi;
  let agentId: string;
  const tasks: Record<string, string> = {};

  const card = (title: string) => page.locator(`li[aria-label="${title}"]`);
  const assigneesOf = async (title: string) =>
    (
      (await uiApi(page, 'GET', `/boards/${boardId}/tasks/${tasks[title]}`)).body as {
        data: { assignees: Array<{ id: string; name: string }> };
      }
    ).data.assignees.map((a) => a.name);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    world = await openBoardWorld();
    ({ page, boardId } = world);
    const laneId = createdId(await uiApi(page, 'POST', `/boards/${boardId}/lanes`, { name: 'Todo' }));
    for (const title of ['Write the docs', 'Fix the build', 'Ship it', 'Crowded']) {
      tasks[title] = createdId(await uiApi(page, 'POST', `/boards/${boardId}/tasks`, { title, laneId }));
    }
    const agent = await createAgentWithKey(page, { agent: 'Claude', key: 'claude-key' });
    agentId = agent.agentId;
    asAgent = extApi(world.server.baseUrl, agent.key);
    const retired = createdId(await uiApi(page, 'POST', '/agents', { name: 'Retired bot' }));
    expect((await uiApi(page, 'POST', `/agents/${retired}/deactivate`)).status).toBe(200);
    const hook = await world.ext('POST', '/webhooks', { url: receiver.url(), events: ['task.assigned'] });
    expect(hook.status).toBe(201);
  }, 240_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('assigns an agent from the card’s menu: type to filter, Enter assigns, deactivated not offered', async () => {
    await page.goto(`/boards/${boardId}`);
    await card('Write the docs').hover();
    await page.getByRole('button', { name: 'Actions for Write the docs' }).click();
    await page.getByRole('menuitem', { name: /Assign/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign “Write the docs”' });
    const search = dialog.getByRole('combobox', { name: 'Search people and agents' });
    await expect.poll(() => search.evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
    await search.fill('retired');
    await dialog.getByText('Nobody matches “retired”.').waitFor();
    await search.fill('cla');
    const options = dialog.getByRole('option');
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringMatching(/Claude/)]);
    await expectAccessible(page, 'assign picker');
    await screenshot(page, 'board-assign-picker');
    await search.press('Enter');
    await dialog.getByRole('option', { name: /Claude/, selected: true }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await card('Write the docs').getByText('Assigned to Claude').waitFor();
    await expect.poll(() => assigneesOf('Write the docs')).toEqual(['Claude']);
  });

  it('`a` on a focused card opens the picker; arrows choose; the `?` sheet lists it', async () => {
    await card('Fix the build').getByRole('link', { name: 'Fix the build' }).focus();
    await page.keyboard.press('a');
    const dialog = page.getByRole('dialog', { name: 'Assign “Fix the build”' });
    await dialog.waitFor();
    // Members are listed by name: Ada Owner, then Claude.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dialog.getByRole('option', { name: /Ada Owner/, selected: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await card('Fix the build').getByText('Assigned to Ada Owner').waitFor();
    expect(await assigneesOf('Fix the build')).toEqual(['Ada Owner']);

    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Assign people and agents to the focused card').waitFor();
    await page.keyboard.press('Escape');
  });

  it('“Assigned to me” keeps my cards, in the address, across a reload', async () => {
    await page.getByRole('button', { name: 'Assigned to me' }).click();
    await page.waitForURL(/assignee=me/);
    await card('Write the docs').waitFor({ state: 'detached' });
    await card('Fix the build').waitFor();
    await page.reload();
    await card('Fix the build').waitFor();
    expect(await card('Ship it').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Assigned to me' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'Assigned to me' }).click();
    await card('Ship it').waitFor();
    expect(page.url()).not.toContain('assignee=');
  });

  it('the task page lists the assignees, unassigns and assigns', async () => {
    await page.goto(`/boards/${boardId}/tasks/${tasks['Write the docs']}`);
    const section = page.getByRole('region', { name: 'Assignees' });
    await section.getByText('Claude').waitFor();
    await section.getByRole('button', { name: 'Unassign Claude' }).click();
    await section.getByText('Nobody yet').waitFor();
    await expect.poll(() => assigneesOf('Write the docs')).toEqual([]);
    await section.getByRole('button', { name: 'Assign…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign “Write the docs”' });
    await dialog.getByRole('option', { name: /Claude/ }).click();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await section.getByText('Claude').waitFor();
    await expect.poll(() => assigneesOf('Write the docs')).toEqual(['Claude']);
  });

  it('the agent’s key assigns through the API: the webhook names the agent, the open board shows it live', async () => {
    await page.goto(`/boards/${boardId}`);
    await card('Ship it').waitFor();
    const answer = await asAgent('PUT', `/boards/${boardId}/tasks/${tasks['Ship it']}/assignees/${agentId}`);
    expect(answer.status).toBe(201);
    await card('Ship it').getByText('Assigned to Claude').waitFor();
    const [delivery] = await receiver.waitFor(1, (r) => r.body.includes(tasks['Ship it'] ?? '?'));
    const payload = JSON.parse(delivery?.body ?? '{}') as {
      type: string;
      actor: unknown;
      data: { task_id: string; assignee: unknown };
    };
    expect(payload.type).toBe('task.assigned');
    expect(payload.actor).toEqual({ type: 'agent', id: agentId, name: 'Claude' });
    expect(payload.data.assignee).toEqual({ id: agentId, type: 'agent', name: 'Claude' });
  });

  it('a turn the agent pushes marks the card “Claude at work”, live; the mark lapses after 10 minutes', async () => {
    // A browser context of its own (a clock is the context's), whose clock the test moves; the
    // server's clock is real.
    const watcher = await signedInPage(world);
    try {
      await watcher.clock.install();
      await watcher.goto(`/boards/${boardId}`);
      const watched = watcher.locator('li[aria-label="Write the docs"]');
      await watched.waitFor();
      expect(await watched.locator('[data-at-work]').count()).toBe(0);
      const turns = [
        {
          source: 'claude',
          sourceId: 'turn-1',
          role: 'assistant',
          content: 'Writing the install section.',
          capturedAt: new Date().toISOString(),
        },
      ];
      const pushed = await asAgent('POST', `/boards/${boardId}/tasks/${tasks['Write the docs']}/turns`, {
        turns,
      });
      expect(pushed.status).toBe(201);
      const mark = watched.locator('[data-at-work]');
      await mark.getByText('Claude').waitFor();
      expect(await mark.textContent()).toMatch(/Claude\s*at work/);
      await watcher.clock.fastForward('09:00');
      await mark.waitFor();
      await watcher.clock.fastForward('01:30');
      await mark.waitFor({ state: 'detached' });
    } finally {
      await watcher.context().close();
    }
  });

  it('at 10 assignees the picker says so and offers no one else', async () => {
    const crowded = tasks.Crowded ?? '';
    for (let n = 1; n <= 9; n += 1) {
      const id = createdId(await uiApi(page, 'POST', '/agents', { name: `Helper ${n}` }));
      await uiApi(page, 'PUT', `/boards/${boardId}/tasks/${crowded}/assignees/${id}`, {});
    }
    await uiApi(page, 'PUT', `/boards/${boardId}/tasks/${crowded}/assignees/${agentId}`, {});
    await card('Crowded')
      .getByText(/Assigned to Helper 1/)
      .waitFor();
    await card('Crowded').getByRole('link', { name: 'Crowded' }).focus();
    await page.keyboard.press('a');
    const dialog = page.getByRole('dialog', { name: 'Assign “Crowded”' });
    await dialog.getByText('A task has at most 10 assignees: unassign someone to assign another.').waitFor();
    const ada = dialog.getByRole('option', { name: /Ada Owner/ });
    expect(await ada.getAttribute('aria-disabled')).toBe('true');
    await ada.click({ force: true });
    expect(await ada.getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('Escape');
    expect(await assigneesOf('Crowded')).not.toContain('Ada Owner');
  });

  it('a card opens as a panel over the board at the task’s address; Esc and Back close it', async () => {
    await page.goto(`/boards/${boardId}`);
    const taskUrl = `**/boards/${boardId}/tasks/${tasks['Ship it']}`;
    const panel = page.getByRole('dialog', { name: 'Ship it' });
    await card('Ship it').getByRole('link', { name: 'Ship it' }).click();
    await page.waitForURL(taskUrl);
    await panel.getByRole('heading', { name: 'Ship it', level: 1 }).waitFor();
    await panel.getByRole('region', { name: 'Assignees' }).getByText('Claude').waitFor();
    expect(await card('Fix the build').count()).toBe(1); // the board is still there, underneath
    await expectAccessible(page, 'task panel over the board');
    await page.keyboard.press('Escape');
    await page.waitForURL(`**/boards/${boardId}`);
    await panel.waitFor({ state: 'detached' });

    await card('Ship it').getByRole('link', { name: 'Ship it' }).click();
    await panel.waitFor();
    await page.goBack();
    await page.waitForURL(`**/boards/${boardId}`);
    await panel.waitFor({ state: 'detached' });
    await page.goForward();
    await panel.waitFor();
    // Opened at its address (a shared link, a new tab), the task is a page of its own.
    const tab = await page.context().newPage();
    try {
      await tab.goto(`/boards/${boardId}/tasks/${tasks['Ship it']}`);
      await tab.getByRole('heading', { name: 'Ship it', level: 1 }).waitFor();
      expect(await tab.getByRole('dialog').count()).toBe(0);
    } finally {
      await tab.close();
    }
  });
});
