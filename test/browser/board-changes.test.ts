import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLanes, type BoardWorld, openBoardWorld } from './fixtures.js';
import { boardState, dragWithMouse, pickUpWithKeyboard, screenshot, uiApi } from './support.js';

/** Moves and creates on the board: what the tab does before, without and after the server's answer. */
describe('board changes in the browser', { timeout: 60_000 }, () => {
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
    const laneOf = await addLanes(page, boardId, ['Todo', 'Doing']);
    for (const [title, laneName] of [
      ['Write the docs', 'Todo'],
      ['Ship it', 'Doing'],
    ] as const) {
      await uiApi(page, 'POST', `/boards/${boardId}/tasks`, { title, laneId: laneOf[laneName] });
    }
    await page.goto(`/boards/${boardId}`);
    await lane('Doing').getByRole('listitem', { name: 'Ship it' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('rolls a dropped card back, with a message, when the server refuses the move', async () => {
    const later = (await uiApi(page, 'POST', `/boards/${boardId}/lanes`, { name: 'Later' })).body as {
      data: { id: string };
    };
    const doomed = (
      await uiApi(page, 'POST', `/boards/${boardId}/tasks`, {
        laneId: (await laneIds()).find((l) => l.name === 'Doing')!.id,
        title: 'Doomed',
      })
    ).body as { data: { id: string } };
    // A tab that has lost its live stream still shows lane Later after it is deleted elsewhere.
    const stale = await page.context().newPage();
    await stale.route('**/events**', (route) => route.abort());
    await stale.goto(`/boards/${boardId}`);
    const staleLane = (name: string) => stale.getByRole('region', { name });
    await staleLane('Later').getByText('No tasks.').waitFor();
    expect((await uiApi(page, 'DELETE', `/boards/${boardId}/lanes/${later.data.id}`)).status).toBe(204);

    await dragWithMouse(
      stale,
      staleLane('Doing').getByRole('button', { name: 'Drag Ship it' }),
      staleLane('Later').getByText('No tasks.'),
    );
    await stale.getByText(/^The move was refused: /).waitFor();
    // Back where it was, and the board re-read: the deleted lane is gone from this tab too.
    await staleLane('Doing').getByRole('listitem', { name: 'Ship it' }).waitFor();
    await staleLane('Later').waitFor({ state: 'detached' });
    expect(await stale.getByRole('listitem', { name: 'Ship it' }).count()).toBe(1);
    const doing = (await laneIds()).find((l) => l.name === 'Doing')!;
    expect((await tasks()).find((t) => t.title === 'Ship it')?.laneId).toBe(doing.id);
    await screenshot(stale, 'board-move-refused');

    // A task deleted elsewhere, moved with the keyboard: refused, and gone once the board is re-read.
    const deleted = await world.ext('DELETE', `/boards/${boardId}/tasks/${doomed.data.id}`);
    expect(deleted.status).toBe(204);
    await staleLane('Doing').getByRole('button', { name: 'Drag Doomed' }).focus();
    await pickUpWithKeyboard(stale, 'Task “Doomed” is over position 2 of 2 in lane Doing.');
    await stale.keyboard.press('ArrowUp');
    await stale.getByText(/Task “Doomed” is over position 1 of 2/).waitFor({ state: 'attached' });
    await stale.keyboard.press('Space');
    await stale.getByText('The move was refused: Task not found.').waitFor();
    await staleLane('Doing').getByRole('listitem', { name: 'Doomed' }).waitFor({ state: 'detached' });
    await stale.close();
  });

  it('moves a card without reading the board again: the live event carries the card', async () => {
    await page.goto(`/boards/${boardId}`);
    await lane('Todo').getByRole('listitem', { name: 'Write the docs' }).waitFor();
    const reads: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes(`/boards/${boardId}/view`)) reads.push(request.url());
    };
    page.on('request', onRequest);
    const moved = page.waitForResponse((response) => response.url().endsWith('/move'));
    // From the keyboard: the focused card's `m` opens "Move to…".
    await lane('Todo').getByRole('link', { name: 'Write the docs' }).focus();
    await page.keyboard.press('m');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Lane').selectOption({ label: 'Doing' });
    await dialog.getByLabel('Position').fill('1');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await lane('Doing').getByRole('listitem', { name: 'Write the docs' }).waitFor();
    expect((await moved).status()).toBe(200);
    // A later change shows through the same stream: by then the move's own event has been applied.
    const doing = (await laneIds()).find((l) => l.name === 'Doing')!;
    const marker = await world.ext('POST', `/boards/${boardId}/tasks`, { title: 'Marker', laneId: doing.id });
    expect(marker.status).toBe(201);
    await lane('Doing').getByRole('listitem', { name: 'Marker' }).waitFor();
    page.off('request', onRequest);
    expect(reads).toEqual([]);
    const shown = await lane('Doing')
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    expect(shown).toEqual(await order('Doing'));
    expect(await order('Doing')).toEqual(['Write the docs', 'Ship it', 'Marker']);
    await screenshot(page, 'board-after-move');
  });

  it('keeps typing in the inline create while the server has not answered yet, and loses nothing', async () => {
    // The server gets each create at once; its answer is held back until the test releases it.
    const held: Array<() => void> = [];
    const hold = async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      await new Promise<void>((release) => held.push(release));
      await route.fulfill({ response });
    };
    await page.route(`**/api/ui/boards/${boardId}/tasks`, hold);
    let answered = 0;
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith(`/boards/${boardId}/tasks`)) {
        answered++;
      }
    });
    const input = page.getByLabel('New task in Todo');
    await input.fill('First title');
    await input.press('Enter');
    // The card comes from the live event while the answer is still held.
    await lane('Todo').getByRole('listitem', { name: 'First title' }).waitFor();
    await expect.poll(() => held.length).toBe(1);
    expect(await input.inputValue()).toBe('');
    expect(await lane('Todo').getByRole('button', { name: 'Add', exact: true }).isEnabled()).toBe(true);
    await input.pressSequentially('Second title');
    await input.press('Enter');
    await lane('Todo').getByRole('listitem', { name: 'Second title' }).waitFor();
    await expect.poll(() => held.length).toBe(2);
    await input.pressSequentially('Third, still typing');
    for (const release of held) release();
    await expect.poll(() => answered).toBe(2);
    // The answers cleared nothing: the third title is still being typed.
    expect(await input.inputValue()).toBe('Third, still typing');
    await page.unroute(`**/api/ui/boards/${boardId}/tasks`, hold);
    expect(await order('Todo')).toEqual(['First title', 'Second title']);
    expect((await tasks()).filter((task) => task.title.endsWith(' title'))).toHaveLength(2);

    // A refused title comes back into the emptied field, with the server's reason.
    const tooLong = 'x'.repeat(501);
    await input.fill(tooLong);
    await input.press('Enter');
    await lane('Todo')
      .getByRole('alert')
      .getByText(/^title must be at most 500 characters/)
      .waitFor();
    expect(await input.inputValue()).toBe(tooLong);
  });

  it('renames and deletes the board: the name comes back on the live stream, the list forgets it', async () => {
    await page.goto(`/boards/${boardId}`);
    await page.getByRole('heading', { name: 'Roadmap', level: 1 }).waitFor();
    const reads: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes(`/boards/${boardId}/view`)) reads.push(request.url());
    };
    page.on('request', onRequest);
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Roadmap 2027');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Roadmap 2027', level: 1 }).waitFor();
    page.off('request', onRequest);
    expect(reads).toEqual([]);
    await page.getByRole('button', { name: 'Delete board' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete board' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('No boards yet').waitFor();
  });
});
