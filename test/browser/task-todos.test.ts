import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLaneAndTask, type BoardWorld, openBoardWorld, signedInPage } from './fixtures.js';
import { expectAccessible, pickUpWithKeyboard, screenshot } from './support.js';

describe('todos on the task page in the browser', { timeout: 60_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  let taskId: string;

  /** The external API on this task, with the agent's key. */
  const ext = (method: string, path: string, body?: unknown) =>
    world.ext(method, `/boards/${boardId}/tasks/${taskId}${path}`, body);

  beforeAll(async () => {
    world = await openBoardWorld();
    ({ page, boardId } = world);
    ({ taskId } = await addLaneAndTask(page, boardId, { lane: 'Doing', task: 'Fix the login bug' }));
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('edits, ticks (at once), reorders by keyboard and deletes todos', async () => {
    for (const text of ['Reproduce', 'Fix the cookie', 'Write a test']) {
      expect((await ext('POST', '/todos', { text, iteration: 0 })).status).toBe(201);
    }
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    const todos = page.getByRole('region', { name: /Todos/ });
    const order = async () => (await todos.getByRole('checkbox').all()).length;
    await todos.getByRole('checkbox', { name: 'Write a test' }).waitFor();
    expect(await order()).toBe(3);

    await todos.getByRole('button', { name: 'Edit todo Fix the cookie' }).click();
    await todos.getByLabel('Todo text').fill('Fix the cookie path');
    await todos.getByLabel('Todo text').press('Enter');
    await todos.getByRole('checkbox', { name: 'Fix the cookie path' }).waitFor();

    // Keyboard path: focus the button and press Enter.
    await todos.getByRole('button', { name: 'Move todo Write a test up' }).focus();
    await page.keyboard.press('Enter');
    await todos.getByRole('button', { name: 'Move todo Reproduce up' }).waitFor();
    expect(await todos.getByRole('button', { name: 'Move todo Reproduce up' }).isDisabled()).toBe(true);
    await expect
      .poll(async () => (await todos.locator('label:not(.sr-only)').allTextContents()).join('|'))
      .toBe('Reproduce|Write a test|Fix the cookie path');

    // "At once": the tick shows while the server has not answered yet (its answer is held back here;
    // the page draws the tick a task after the click, so it is polled for, not read at the click).
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const holdTick = async (route: Route) => {
      if (route.request().method() === 'PATCH') await answered;
      await route.continue();
    };
    await page.route('**/todos/*', holdTick);
    const patched = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/todos/'),
    );
    const reproduce = todos.getByRole('checkbox', { name: 'Reproduce' });
    await reproduce.click();
    await expect.poll(() => reproduce.isChecked(), { timeout: 10_000 }).toBe(true);
    await todos.getByText('1/3').waitFor();
    await screenshot(page, 'task-todo-ticked');
    answer();
    expect((await patched).status()).toBe(200);
    await page.unroute('**/todos/*', holdTick);
    expect(await reproduce.isChecked()).toBe(true);

    await todos.getByRole('button', { name: 'Delete todo Write a test' }).click();
    await todos.getByText('1/2').waitFor();
    const listed = (await (await ext('GET', '/todos')).json()) as { data: { text: string; done: boolean }[] };
    expect(listed.data.map((t) => [t.text, t.done])).toEqual([
      ['Reproduce', true],
      ['Fix the cookie path', false],
    ]);
    await expectAccessible(page, 'task page with todos');
  });

  it('reorders todos by dragging, with the mouse and the keyboard, and the order persists', async () => {
    expect((await ext('POST', '/todos', { text: 'Ship the fix', iteration: 0 })).status).toBe(201);
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    const todos = page.getByRole('region', { name: /Todos/ });
    const labels = async () => (await todos.locator('label:not(.sr-only)').allTextContents()).join('|');
    const stored = async () =>
      ((await (await ext('GET', '/todos')).json()) as { data: { text: string }[] }).data
        .map((t) => t.text)
        .join('|');
    await todos.getByRole('checkbox', { name: 'Ship the fix' }).waitFor();
    expect(await labels()).toBe('Reproduce|Fix the cookie path|Ship the fix');

    // Mouse: the last todo's grip dropped on the first todo puts it first.
    const handle = todos.getByRole('button', { name: 'Drag todo Ship the fix' });
    const target = todos.getByRole('checkbox', { name: 'Reproduce' });
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(from.x + from.width / 2, to.y, { steps: 15 });
    await page.mouse.up();
    await expect.poll(stored).toBe('Ship the fix|Reproduce|Fix the cookie path');
    expect(await labels()).toBe('Ship the fix|Reproduce|Fix the cookie path');

    // Keyboard: Space picks up, an arrow moves, Space drops; a screen reader hears where it is.
    await todos.getByRole('button', { name: 'Drag todo Reproduce' }).focus();
    await pickUpWithKeyboard(page, 'Todo “Reproduce” is over position 2 of 3.');
    await page.keyboard.press('ArrowDown');
    await page.getByText('Todo “Reproduce” is over position 3 of 3.').waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await expect.poll(stored).toBe('Ship the fix|Fix the cookie path|Reproduce');

    await page.reload();
    await todos.getByRole('checkbox', { name: 'Reproduce' }).waitFor();
    expect(await labels()).toBe('Ship the fix|Fix the cookie path|Reproduce');
    await expectAccessible(page, 'task page after reordering todos');

    // The same todos in the dark theme and at phone width, as people will see them.
    for (const [options, name] of [
      [{ dark: true }, 'task-todos-dark'],
      [{ phone: true }, 'task-todos-phone'],
    ] as const) {
      const other = await signedInPage(world, options);
      await other.goto(`/boards/${boardId}/tasks/${taskId}`);
      const shown = other.getByRole('region', { name: /Todos/ });
      await shown.getByRole('checkbox', { name: 'Reproduce' }).waitFor();
      expect((await shown.locator('label:not(.sr-only)').allTextContents()).join('|')).toBe(
        'Ship the fix|Fix the cookie path|Reproduce',
      );
      await screenshot(other, name);
      await expectAccessible(other, `task page todos (${name})`);
      await other.context().close();
    }
  });
});
