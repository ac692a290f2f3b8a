import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLanes, type BoardWorld, openBoardWorld, signedInPage } from './fixtures.js';
import { boardState, expectAccessible, screenshot, uiApi } from './support.js';

/** The id of the card that holds focus (its title link is what the keys focus). */
const focusedCard = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } } })
      .document;
    const card = doc.activeElement.closest('[data-card-id]') as { getAttribute(n: string): string } | null;
    return card?.getAttribute('aria-label') ?? null;
  });

describe('the board, wide and by keyboard', { timeout: 90_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  const lane = (name: string) => page.getByRole('region', { name });
  const order = (laneName: string) => boardState(page, boardId).order(laneName);

  beforeAll(async () => {
    world = await openBoardWorld();
    ({ page, boardId } = world);
    const lanes = await addLanes(page, boardId, ['Todo', 'Doing', 'Review', 'Done', 'Later']);
    const me = (await uiApi(page, 'GET', '/session')).body as { data: { id: string } };
    for (const [title, laneName, extra] of [
      ['Write the docs', 'Todo', { priority: 2, tags: ['docs', 'ui'] }],
      ['Ship it', 'Todo', {}],
      ['Fix the login bug', 'Todo', { priority: 4, tags: ['bug'] }],
      ['Review the API', 'Doing', { tags: ['api'] }],
      ['Plan the release', 'Later', {}],
    ] as const) {
      const res = await world.ext('POST', `/boards/${boardId}/tasks`, {
        title,
        laneId: lanes[laneName],
        ...extra,
      });
      const task = (await res.json()) as { data: { id: string } };
      if (title === 'Write the docs') {
        const assigned = await world.ext(
          'PUT',
          `/boards/${boardId}/tasks/${task.data.id}/assignees/${me.data.id}`,
        );
        expect(assigned.status).toBe(201);
      }
    }
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('uses the window’s width: five lanes side by side at 1 600 px, each card a title and one line', async () => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.goto(`/boards/${boardId}`);
    await lane('Later').getByRole('listitem', { name: 'Plan the release' }).waitFor();
    const right = (await lane('Later').boundingBox())!;
    expect(right.x + right.width).toBeLessThanOrEqual(1600);
    const card = lane('Todo').getByRole('listitem', { name: 'Write the docs' });
    expect((await card.boundingBox())!.height).toBeLessThan(64);
    await card.getByText('Assigned to Ada Owner').waitFor({ state: 'attached' });
    await card.getByText('Medium').waitFor();
    await card.getByText('docs', { exact: true }).waitFor();
    // The actions show on hover; "Move to…" is one key away (m) or one item away.
    await card.hover();
    await card.getByRole('button', { name: 'Actions for Write the docs' }).click();
    await page.getByRole('menuitem', { name: /Move to…/ }).waitFor();
    await expectAccessible(page, 'card actions menu');
    await page.keyboard.press('Escape');
    await screenshot(page, 'board-wide');
    await expectAccessible(page, 'wide board');
  });

  it('moves focus between cards and lanes with arrows and h j k l; Enter opens the card', async () => {
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).click();
    await page.keyboard.press('j');
    await expect.poll(() => focusedCard(page)).toBe('Write the docs');
    await page.keyboard.press('j');
    await expect.poll(() => focusedCard(page)).toBe('Ship it');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedCard(page)).toBe('Fix the login bug');
    await page.keyboard.press('l');
    await expect.poll(() => focusedCard(page)).toBe('Review the API');
    // Review and Done are empty: the next lane with cards.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedCard(page)).toBe('Plan the release');
    await page.keyboard.press('h');
    await expect.poll(() => focusedCard(page)).toBe('Review the API');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('k');
    await expect.poll(() => focusedCard(page)).toBe('Write the docs');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.includes('/tasks/'));
    await page.goBack();
    await lane('Todo').getByRole('listitem', { name: 'Write the docs' }).waitFor();
  });

  it('moves the focused card with m, shows it before the server answers, and undoes it from the toast', async () => {
    await lane('Todo').getByRole('link', { name: 'Ship it' }).focus();
    // The move's answer is held back: the card must show in its new lane before it.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/move', async (route) => {
      await held;
      await route.continue();
    });
    await page.keyboard.press('m');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Lane').selectOption({ label: 'Review' });
    await dialog.getByRole('button', { name: 'Move' }).click();
    await lane('Review').getByRole('listitem', { name: 'Ship it' }).waitFor();
    await expect.poll(() => focusedCard(page)).toBe('Ship it');
    release();
    await expect.poll(() => order('Review')).toEqual(['Ship it']);
    await page.unroute('**/move');
    await page.getByText('“Ship it” moved to Review').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await lane('Todo').getByRole('listitem', { name: 'Ship it' }).waitFor();
    await expect.poll(() => order('Todo')).toEqual(['Write the docs', 'Ship it', 'Fix the login bug']);
  });

  it('edits a title in place with e, archives with x and undoes the archive', async () => {
    await lane('Todo').getByRole('link', { name: 'Fix the login bug' }).focus();
    await page.keyboard.press('e');
    const field = page.getByLabel('Title of Fix the login bug');
    await field.fill('Fix the sign-in bug');
    await field.press('Enter');
    await lane('Todo').getByRole('link', { name: 'Fix the sign-in bug' }).waitFor();
    await expect.poll(() => order('Todo')).toContain('Fix the sign-in bug');
    // Esc keeps the old title.
    await lane('Todo').getByRole('link', { name: 'Fix the sign-in bug' }).focus();
    await page.keyboard.press('e');
    await page.getByLabel('Title of Fix the sign-in bug').fill('Not this');
    await page.keyboard.press('Escape');
    await lane('Todo').getByRole('link', { name: 'Fix the sign-in bug' }).waitFor();

    await lane('Todo').getByRole('link', { name: 'Fix the sign-in bug' }).focus();
    await page.keyboard.press('x');
    await lane('Todo').getByRole('listitem', { name: 'Fix the sign-in bug' }).waitFor({ state: 'detached' });
    await page.getByText('“Fix the sign-in bug” archived').waitFor();
    await expect.poll(() => order('Todo')).toEqual(['Write the docs', 'Ship it']);
    await page.getByRole('button', { name: 'Undo' }).click();
    await lane('Todo').getByRole('listitem', { name: 'Fix the sign-in bug' }).waitFor();
    await expect.poll(() => order('Todo')).toEqual(['Write the docs', 'Ship it', 'Fix the sign-in bug']);
  });

  it('lists the keys on ?', async () => {
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).click();
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Move the focused card to a lane and position').waitFor();
    await expectAccessible(page, 'keys help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('in dark and on a phone: one lane per screen that snaps, a moved card scrolled into view', async () => {
    const dark = await signedInPage(world, { dark: true });
    await dark.setViewportSize({ width: 1600, height: 900 });
    await dark.goto(`/boards/${boardId}`);
    await dark.getByRole('region', { name: 'Later' }).getByRole('listitem').first().waitFor();
    await screenshot(dark, 'board-wide-dark');
    await expectAccessible(dark, 'wide board, dark');
    await dark.context().close();

    const phone = await signedInPage(world, { phone: true });
    await phone.goto(`/boards/${boardId}`);
    const todo = phone.getByRole('region', { name: 'Todo' });
    await todo.getByRole('listitem', { name: 'Ship it' }).waitFor();
    const box = (await todo.boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    // Lane tabs bring a lane into view.
    await phone.getByRole('navigation', { name: 'Lanes' }).getByRole('button', { name: 'Later' }).click();
    await expect
      .poll(async () => (await phone.getByRole('region', { name: 'Later' }).boundingBox())!.x)
      .toBeLessThan(40);
    await phone.getByRole('navigation', { name: 'Lanes' }).getByRole('button', { name: 'Todo' }).click();
    await expect.poll(async () => (await todo.boundingBox())!.x).toBeLessThan(40);
    await phone.getByRole('button', { name: 'Actions for Ship it' }).click();
    await phone.getByRole('menuitem', { name: /Move to…/ }).click();
    await phone.getByRole('dialog').getByLabel('Lane').selectOption({ label: 'Later' });
    await phone.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    const moved = phone.getByRole('region', { name: 'Later' }).getByRole('listitem', { name: 'Ship it' });
    await moved.waitFor();
    await expect
      .poll(async () => {
        const at = (await moved.boundingBox())!;
        return at.x >= 0 && at.x + at.width <= 390;
      })
      .toBe(true);
    await screenshot(phone, 'board-phone-moved');
    await expectAccessible(phone, 'board on a phone');
    await phone.context().close();
  });
});
