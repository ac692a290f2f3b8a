import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addLanes,
  type BoardWorld,
  createAgentWithKey,
  type ExtApi,
  extApi,
  openBoardWorld,
  signedInPage,
} from './fixtures.js';
import { createdId, expectAccessible, screenshot, uiApi } from './support.js';

/**
 * The inbox (issue 29): a mention written through the external API reaches the mentioned person's open
 * tab (badge and list) over the inbox stream; marking read; `@` autocomplete in the comment editor.
 */
describe('inbox and mentions in the browser', { timeout: 120_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  let taskId: string;
  /** The external API with the agent's own key. */
  let agentApi: ExtApi;

  const badge = () => page.getByTestId('unread-badge');

  beforeAll(async () => {
    world = await openBoardWorld({ boardName: 'Roadmap' });
    ({ page, boardId } = world);
    const agent = await createAgentWithKey(page, { agent: 'Claude', key: 'claude' });
    agentApi = extApi(world.server.baseUrl, agent.key);
    const lanes = await addLanes(page, boardId, ['Todo', 'Done']);
    taskId = createdId(
      await uiApi(page, 'POST', `/boards/${boardId}/tasks`, {
        title: 'Write the release notes',
        laneId: lanes.Todo,
      }),
    );
    const me = (await uiApi(page, 'GET', '/session')).body as { data: { id: string } };
    // An earlier assignment by the agent, so the inbox has a read and an unread line.
    expect((await agentApi('PUT', `/boards/${boardId}/tasks/${taskId}/assignees/${me.data.id}`)).status).toBe(
      201,
    );
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  it('shows a mention made through the API in the open tab at once, badge and list', async () => {
    await page.goto('/inbox');
    await page.getByRole('listitem').filter({ hasText: 'Claude assigned you to' }).waitFor();
    await expect.poll(() => badge().textContent()).toBe('1');

    const started = Date.now();
    const res = await agentApi('POST', `/boards/${boardId}/tasks/${taskId}/comments`, {
      body: '@Ada Owner the draft is ready for review',
      authorName: 'Claude',
    });
    expect(res.status).toBe(201);
    await page.getByRole('listitem').filter({ hasText: 'Claude mentioned you in' }).waitFor();
    await expect.poll(() => badge().textContent(), { timeout: 5000, interval: 20 }).toBe('2');
    const elapsed = Date.now() - started;
    // Issue 29 asks for 1 s; a busy shared machine is given a few seconds, and the time is reported.
    console.log(`inbox: a mention reached the open tab in ${elapsed} ms`);
    expect(elapsed).toBeLessThan(5000);
    await expect.poll(() => page.getByRole('link', { name: /^Inbox\s*2 unread$/ }).count()).toBe(1);
  });

  it('marks one read, then all; the badge follows', async () => {
    await page.getByRole('button', { name: 'Mark read: Write the release notes' }).first().click();
    await expect.poll(() => badge().textContent()).toBe('1');
    await screenshot(page, 'inbox-light');

    for (const options of [{ dark: true }, { phone: true }]) {
      const other = await signedInPage(world, options);
      await other.goto('/inbox');
      await other.getByRole('listitem').filter({ hasText: 'Claude mentioned you in' }).waitFor();
      await other.getByTestId('unread-badge').waitFor();
      await screenshot(other, options.dark ? 'inbox-dark' : 'inbox-phone');
      await other.context().close();
    }

    await expectAccessible(page, 'the inbox');
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await badge().waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('button', { name: /^Mark read/ }).count()).toBe(0);
  });

  it('opens the task from the inbox; @ offers members and inserts the chosen one', async () => {
    await page.getByRole('button', { name: /Claude mentioned you in/ }).click();
    await page.waitForURL(`**/boards/${boardId}/tasks/${taskId}**`);
    const editor = page.getByLabel('Add a comment');
    await editor.click();
    await editor.pressSequentially('Thanks @cl');
    const option = page.getByRole('option', { name: /Claude/ });
    await option.waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => editor.inputValue()).toBe('Thanks @Claude ');
    await editor.pressSequentially('and @Ada');
    await page.getByRole('option', { name: /Ada Owner/ }).click();
    await expect.poll(() => editor.inputValue()).toBe('Thanks @Claude and @Ada Owner ');
    await page.getByRole('listbox', { name: 'Mention a person or agent' }).waitFor({ state: 'detached' });

    // The description editor offers the same, and Escape closes the list without inserting.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const description = page.getByLabel('Description (Markdown)');
    await description.click();
    await description.pressSequentially('Ask @Clau');
    await page.getByRole('option', { name: /Claude/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'Mention a person or agent' }).waitFor({ state: 'detached' });
    await description.pressSequentially('d');
    await page.keyboard.press('Tab');
    await expect.poll(() => description.inputValue()).toBe('Ask @Claude ');
  });
});
