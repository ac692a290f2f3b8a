import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoardWorld, openBoardWorld, signedInPage } from './fixtures.js';
import {
  boardState,
  dragWithMouse,
  expectAccessible,
  pageOverflow,
  pickUpWithKeyboard,
  screenshot,
} from './support.js';

describe('the board in the browser', { timeout: 60_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;

  const lane = (name: string) => page.getByRole('region', { name });
  const tasks = () => boardState(page, boardId).tasks();
  const laneIds = () => boardState(page, boardId).lanes();
  const order = (laneName: string) => boardState(page, boardId).order(laneName);

  beforeAll(async () => {
    world = await openBoardWorld();
    ({ page, boardId } = world);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('opens a board from the list and offers to add the first lane', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Roadmap' }).click();
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).waitFor();
    await page.getByLabel('This board has no lanes yet: add the first').fill('Todo');
    await page.getByRole('button', { name: 'Add lane' }).click();
    await lane('Todo').waitFor();
    for (const name of ['Doing', 'Done']) {
      await page.getByLabel('Add lane').fill(name);
      await page.getByRole('button', { name: 'Add lane' }).click();
      await lane(name).waitFor();
    }
  });

  it('creates tasks inline', async () => {
    for (const title of ['Write the docs', 'Ship it', 'Fix the login bug']) {
      await page.getByLabel('New task in Todo').fill(title);
      await page.getByLabel('New task in Todo').press('Enter');
      await lane('Todo').getByRole('listitem', { name: title }).waitFor();
    }
    expect((await tasks()).map((t) => t.title)).toEqual(['Write the docs', 'Ship it', 'Fix the login bug']);
    await expectAccessible(page, 'board page');
  });

  it('shows a change made through the external API without a reload', async () => {
    const todo = (await laneIds()).find((l) => l.name === 'Doing')!;
    // The live stream's event carries the card: the tab applies it without re-reading the board.
    const reads: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes(`/boards/${boardId}/view`)) reads.push(request.url());
    };
    page.on('request', onRequest);
    const started = Date.now();
    const res = await world.ext('POST', `/boards/${boardId}/tasks`, {
      title: 'Made by an agent',
      laneId: todo.id,
      priority: 3,
      tags: ['agent', 'api'],
    });
    expect(res.status).toBe(201);
    await lane('Doing').getByRole('listitem', { name: 'Made by an agent' }).waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000); // pushed, not polled; room for a busy machine
    page.off('request', onRequest);
    expect(reads).toEqual([]);
    await lane('Doing').getByRole('listitem', { name: 'Made by an agent' }).getByText('High').waitFor();
  });

  it('moves a task with "Move to…" at phone width, to the exact position', async () => {
    const phone = await signedInPage(world, { phone: true });
    await phone.goto(`/boards/${boardId}`);
    await phone.getByRole('region', { name: 'Todo' }).waitFor();
    // The lanes scroll sideways inside their row; the page itself never does.
    expect((await pageOverflow(phone)).scrollWidth).toBe(390);
    // On a touch screen the card's actions button is always shown; "Move to…" is its first item.
    await phone.getByRole('button', { name: 'Actions for Ship it' }).click();
    await phone.getByRole('menuitem', { name: /Move to…/ }).click();
    const dialog = phone.getByRole('dialog');
    await dialog.getByLabel('Lane').selectOption({ label: 'Doing' });
    await dialog.getByLabel('Position').fill('1');
    await expectAccessible(phone, 'move dialog at phone width');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await phone.getByRole('region', { name: 'Doing' }).getByRole('listitem', { name: 'Ship it' }).waitFor();
    const doing = (await laneIds()).find((l) => l.name === 'Doing')!;
    const moved = (await tasks())
      .filter((t) => t.laneId === doing.id)
      .sort((a, b) => a.position! - b.position!);
    expect(moved.map((t) => t.title)).toEqual(['Ship it', 'Made by an agent']);
    await screenshot(phone, 'board-phone');
    // The other tab hears about the move too.
    await lane('Doing').getByRole('listitem', { name: 'Ship it' }).waitFor();
    await phone.context().close();
  });

  it('drags tasks and lanes with the keyboard and the mouse, to the API positions', async () => {
    const announced = (text: string | RegExp) => page.getByText(text).first().waitFor({ state: 'attached' });
    // Keyboard: space picks up, an arrow moves, space drops; a screen reader hears each step.
    await lane('Todo').getByRole('button', { name: 'Drag Fix the login bug' }).focus();
    await pickUpWithKeyboard(page, 'Task “Fix the login bug” is over position 2 of 2 in lane Todo.');
    await page.keyboard.press('ArrowUp');
    await announced(/is over position 1 of 2 in lane Todo/);
    await page.keyboard.press('Space');
    await announced(/was dropped at position 1 of 2 in lane Todo/);
    await expect.poll(() => order('Todo')).toEqual(['Fix the login bug', 'Write the docs']);

    // Mouse: a card from Doing dropped on the top half of Todo's first card goes first in Todo.
    await dragWithMouse(
      page,
      lane('Doing').getByRole('button', { name: 'Drag Made by an agent' }),
      lane('Todo').getByRole('listitem', { name: 'Fix the login bug' }),
      { x: 12, y: 4 },
    );
    await lane('Todo').getByRole('listitem', { name: 'Made by an agent' }).waitFor();
    await expect
      .poll(() => order('Todo'))
      .toEqual(['Made by an agent', 'Fix the login bug', 'Write the docs']);
    expect(await order('Doing')).toEqual(['Ship it']);

    // Lanes: Done moved left of Doing with the keyboard.
    await page.getByRole('button', { name: 'Drag lane Done' }).focus();
    await pickUpWithKeyboard(page, 'Lane Done is over lane Done.');
    await page.keyboard.press('ArrowLeft');
    await announced(/Lane Done is over lane Doing/);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await laneIds()).map((l) => l.name)).toEqual(['Todo', 'Done', 'Doing']);
    await expectAccessible(page, 'board page after dragging');
  });

  it('has keyboard shortcuts, listed on ?', async () => {
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).click();
    await page.keyboard.press('/');
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement
              .id,
        ),
      )
      .toBe('board-filter');
    // Typing in a field types; it does not trigger shortcuts.
    await page.keyboard.type('n?');
    expect(await page.getByLabel('Filter tasks').inputValue()).toBe('n?');
    await page.getByLabel('Filter tasks').fill('');
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).click();
    await page.keyboard.press('n');
    await page.keyboard.type('Typed after n');
    expect(await page.getByLabel('New task in Todo').inputValue()).toBe('Typed after n');
    await page.getByLabel('New task in Todo').fill('');
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).click();
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Filter tasks').waitFor();
    await expectAccessible(page, 'shortcut help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('filters, archives and shows archived tasks', async () => {
    await page.getByLabel('Filter tasks').fill('login');
    await lane('Todo').getByRole('listitem', { name: 'Fix the login bug' }).waitFor();
    expect(await lane('Todo').getByRole('listitem', { name: 'Write the docs' }).count()).toBe(0);
    await page.getByLabel('Filter tasks').fill('');
    await page.getByRole('button', { name: 'Actions for Write the docs' }).click();
    await page.getByRole('menuitem', { name: /^Archive/ }).click();
    await lane('Todo').getByRole('listitem', { name: 'Write the docs' }).waitFor({ state: 'detached' });
    await page.getByLabel('Show archived').check();
    await page.getByRole('button', { name: 'Actions for Write the docs' }).click();
    await page.getByRole('menuitem', { name: /^Unarchive/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Show archived').uncheck();
    await screenshot(page, 'board');
  });

  it('follows the system theme', async () => {
    const dark = await signedInPage(world, { dark: true });
    await dark.goto(`/boards/${boardId}`);
    await dark.getByRole('region', { name: 'Doing' }).getByRole('listitem', { name: 'Ship it' }).waitFor();
    const background = await dark.evaluate(
      () =>
        (
          globalThis as unknown as {
            getComputedStyle(e: unknown): { backgroundColor: string };
            document: { body: unknown };
          }
        ).getComputedStyle((globalThis as unknown as { document: { body: unknown } }).document.body)
          .backgroundColor,
    );
    expect(background).not.toBe('rgb(255, 255, 255)');
    await screenshot(dark, 'board-dark');
    await expectAccessible(dark, 'board page, dark theme');
    await dark.context().close();
  });

  it('deletes a lane after saying what goes with it', async () => {
    await page.getByRole('button', { name: 'Lane Done actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete lane' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Its 0 tasks go with it').waitFor();
    await confirm.getByRole('button', { name: 'Delete lane' }).click();
    await lane('Done').waitFor({ state: 'detached' });
  });
});
