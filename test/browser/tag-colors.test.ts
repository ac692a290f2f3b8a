import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedTagColor } from '../../src/domain/boards/tag-color-rules.js';
import { addLanes, type BoardWorld, openBoardWorld, signedInPage } from './fixtures.js';
import { createdId, expectAccessible, screenshot, uiApi } from './support.js';

/** The page's getComputedStyle (this file is type-checked against Node's library, not the DOM's). */
type Styled = { getComputedStyle(element: unknown): { backgroundColor: string } };

/** Tag colours chosen per board (issue 27): chosen on the task page, seen live on the open board. */
describe('tag colours in the browser', { timeout: 120_000 }, () => {
  let world: BoardWorld;
  let board: Page;
  let boardId: string;
  let taskId: string;
  /** A colour that is not the tag's own, so choosing it is a change. */
  const chosenFor = (tag: string) => (derivedTagColor(tag) === 'purple' ? 'teal' : 'purple');
  const cardTag = (page: Page, tag: string) =>
    page.getByRole('listitem', { name: 'Fix the sign-in redirect' }).locator(`[data-tag="${tag}"]`);

  beforeAll(async () => {
    world = await openBoardWorld({ boardName: 'Launch' });
    ({ page: board, boardId } = world);
    const lanes = await addLanes(board, boardId, ['Todo', 'Doing']);
    const cards: Array<[string, string, string[]]> = [
      ['Todo', 'Fix the sign-in redirect', ['bug', 'auth']],
      ['Todo', 'Pricing page copy', ['web']],
      ['Doing', 'Rate limit the export endpoint', ['api', 'bug']],
      ['Doing', 'Release notes', ['docs']],
    ];
    for (const [lane, title, tags] of cards) {
      const id = createdId(
        await uiApi(board, 'POST', `/boards/${boardId}/tasks`, { title, laneId: lanes[lane], tags }),
      );
      if (title === 'Fix the sign-in redirect') taskId = id;
    }
    await board.goto(`/boards/${boardId}`);
    await cardTag(board, 'bug').waitFor();
  }, 240_000);
  afterAll(async () => {
    await world?.close();
  });

  it('a colour chosen from the task page shows on the board open in another tab, and goes back to the default', async () => {
    const derived = derivedTagColor('bug');
    const chosen = chosenFor('bug');
    expect(await cardTag(board, 'bug').getAttribute('data-tag-color')).toBe(derived);
    const dot = cardTag(board, 'bug').locator('span[aria-hidden]');
    const before = await dot.evaluate(
      (element) => (globalThis as unknown as Styled).getComputedStyle(element).backgroundColor,
    );

    const task = await board.context().newPage();
    await task.goto(`/boards/${boardId}/tasks/${taskId}`);
    const chip = task.getByRole('button', { name: /^Tag bug, / });
    await chip.click();
    const menu = task.getByRole('menu');
    await menu.waitFor();
    // The derived colour is the checked one, and says it is the default.
    await expect
      .poll(() => menu.getByRole('menuitemradio', { checked: true }).textContent())
      .toMatch(new RegExp(`${derived} \\(default\\)`, 'i'));
    await expectAccessible(task, 'task page with the tag colour menu open');
    await screenshot(task, 'tags-task-menu');
    await menu.getByRole('menuitemradio', { name: new RegExp(`^${chosen}`, 'i') }).click();

    // The other tab's board takes the change from its live stream, without a reload.
    await expect.poll(() => cardTag(board, 'bug').getAttribute('data-tag-color')).toBe(chosen);
    expect(
      await dot.evaluate(
        (element) => (globalThis as unknown as Styled).getComputedStyle(element).backgroundColor,
      ),
    ).not.toBe(before);
    // Every card with the tag, not only the task's own.
    const other = board
      .getByRole('listitem', { name: 'Rate limit the export endpoint' })
      .locator('[data-tag="bug"]');
    expect(await other.getAttribute('data-tag-color')).toBe(chosen);
    await expect.poll(() => chip.getAttribute('data-tag-color')).toBe(chosen);
    await expectAccessible(board, 'board with a chosen tag colour');
    await screenshot(board, 'tags-board');

    // Choosing the default again stores nothing and the board follows.
    await chip.click();
    await task.getByRole('menuitemradio', { name: /\(default\)/ }).click();
    await expect.poll(() => cardTag(board, 'bug').getAttribute('data-tag-color')).toBe(derived);
    const stored = await uiApi(board, 'GET', `/boards/${boardId}/tag-colors`);
    expect(stored.body).toEqual({ data: [] });
    await task.close();
  });

  it("a colour chosen from a card's menu on the board shows on the task page open in another tab", async () => {
    const chosen = derivedTagColor('auth') === 'blue' ? 'green' : 'blue';
    const task = await board.context().newPage();
    await task.goto(`/boards/${boardId}/tasks/${taskId}`);
    const chip = task.getByRole('button', { name: /^Tag auth, / });
    expect(await chip.getAttribute('data-tag-color')).toBe(derivedTagColor('auth'));

    await board.getByRole('button', { name: 'Actions for Fix the sign-in redirect' }).click();
    await board.getByRole('menuitem', { name: 'Colour of “auth”' }).click();
    const submenu = board.getByRole('menu').last();
    await submenu.getByRole('menuitemradio', { name: new RegExp(`^${chosen}`, 'i') }).waitFor();
    await expectAccessible(board, "a card's menu with a tag's colours");
    await screenshot(board, 'tags-card-menu');
    await submenu.getByRole('menuitemradio', { name: new RegExp(`^${chosen}`, 'i') }).click();

    await expect.poll(() => chip.getAttribute('data-tag-color')).toBe(chosen);
    await expect.poll(() => cardTag(board, 'auth').getAttribute('data-tag-color')).toBe(chosen);
    // The board's history says who changed which tag.
    await board.goto(`/boards/${boardId}/history`);
    await board.getByText(`auth: ${chosen}`).waitFor();
    await board.goto(`/boards/${boardId}`);
    await cardTag(board, 'auth').waitFor();
    await task.close();
  });

  it('screenshots in dark mode and at phone width, accessible', async () => {
    await uiApi(board, 'PUT', `/boards/${boardId}/tag-colors`, { tag: 'docs', color: 'gray' });
    await uiApi(board, 'PUT', `/boards/${boardId}/tag-colors`, { tag: 'bug', color: 'red' });
    for (const options of [{ dark: true }, { phone: true }]) {
      const page = await signedInPage(world, options);
      try {
        const name = options.dark ? 'dark' : 'phone';
        if (options.dark) {
          await page.goto(`/boards/${boardId}`);
          await expect.poll(() => cardTag(page, 'bug').getAttribute('data-tag-color')).toBe('red');
          await expectAccessible(page, 'board with tag colours (dark)');
          await screenshot(page, 'tags-board-dark');
        }
        await page.goto(`/boards/${boardId}/tasks/${taskId}`);
        const chip = page.getByRole('button', { name: /^Tag bug, red/ });
        await chip.click();
        await page.getByRole('menu').waitFor();
        await expectAccessible(page, `task page with the tag colour menu (${name})`);
        await screenshot(page, `tags-task-menu-${name}`);
      } finally {
        await page.context().close();
      }
    }
  });
});
