import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLaneAndTask, type BoardWorld, openBoardWorld } from './fixtures.js';
import { expectAccessible, uiApi } from './support.js';

interface Comment {
  id: string;
  reactions: { content: string; count: number; mine?: boolean }[];
}

describe('the task page in the browser', { timeout: 60_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  let taskId: string;

  /** The external API on this task, with the agent's key. */
  const ext = (method: string, path: string, body?: unknown) =>
    world.ext(method, `/boards/${boardId}/tasks/${taskId}${path}`, body);
  const comments = async () =>
    ((await uiApi(page, 'GET', `/boards/${boardId}/tasks/${taskId}/comments`)).body as { data: Comment[] })
      .data;

  beforeAll(async () => {
    // A small upload limit so the 413 path is reachable with a tiny file.
    world = await openBoardWorld({ env: { LANEBOARD_ASSET_MAX_BYTES: '2048' } });
    ({ page, boardId } = world);
    ({ taskId } = await addLaneAndTask(page, boardId, { lane: 'Doing', task: 'Fix the login bug' }));
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('adds and removes reactions on a comment, counting others and highlighting the person’s own', async () => {
    expect(
      (
        await ext('POST', '/comments', {
          body: 'Found it: the cookie path.',
          source: 'agent',
          authorName: 'Claude',
        })
      ).status,
    ).toBe(201);
    const [comment] = await comments();
    // The agent's key reacts first: the person sees its count, not highlighted.
    expect((await ext('PUT', `/comments/${comment!.id}/reactions/rocket`)).status).toBe(201);

    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    const thread = page.getByRole('listitem', { name: 'Comment by Claude' });
    await thread.getByRole('button', { name: 'rocket: 1', exact: true }).waitFor();
    expect(await thread.getByRole('button', { name: 'rocket: 1' }).getAttribute('aria-pressed')).toBe(
      'false',
    );

    // Add a rocket too: the count includes the person and shows as theirs.
    await thread.getByRole('button', { name: 'rocket: 1' }).click();
    await thread.getByRole('button', { name: 'rocket: 2, including you' }).waitFor();
    expect(
      await thread.getByRole('button', { name: 'rocket: 2, including you' }).getAttribute('aria-pressed'),
    ).toBe('true');

    // A new content from the picker.
    await thread.getByLabel('Add a reaction').click();
    await thread.getByRole('button', { name: 'React with heart' }).click();
    await thread.getByRole('button', { name: 'heart: 1, including you' }).waitFor();
    expect((await comments())[0]!.reactions).toEqual([
      { content: 'heart', count: 1, mine: true },
      { content: 'rocket', count: 2, mine: true },
    ]);
    await expectAccessible(page, 'task page with reactions');

    // Removing the person's own: the heart disappears, the rocket goes back to the agent's one.
    await thread.getByRole('button', { name: 'heart: 1, including you' }).click();
    await thread.getByRole('button', { name: 'rocket: 2, including you' }).click();
    await thread.getByRole('button', { name: 'rocket: 1', exact: true }).waitFor();
    expect(await thread.getByRole('button', { name: /heart/ }).count()).toBe(0);
    // The external API keeps the plain counts (no `mine`).
    const listed = (await (await ext('GET', '/comments')).json()) as { data: Comment[] };
    expect(listed.data[0]!.reactions).toEqual([{ content: 'rocket', count: 1 }]);
  });

  it('attaches files by the picker and by drop, downloads, refuses a too-large one, deletes with confirmation', async () => {
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    const files = page.getByRole('region', { name: 'Files' });
    await files.getByText('No files yet').waitFor();
    await page.getByLabel('Files to attach').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('cookie path is /api'),
    });
    await files.getByRole('link', { name: 'notes.txt' }).waitFor();

    // Drop: a DataTransfer built in the page, as a drag from the desktop delivers it.
    // Runs in the page (the root tsconfig has no DOM types).
    const transfer = await page.evaluateHandle(() => {
      const dom = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: string[], name: string, options: { type: string }) => unknown;
      };
      const data = new dom.DataTransfer();
      data.items.add(new dom.File(['<svg/>'], 'trace.svg', { type: 'image/svg+xml' }));
      return data;
    });
    await files.dispatchEvent('drop', { dataTransfer: transfer });
    await files.getByRole('link', { name: 'trace.svg' }).waitFor();

    const href = await files.getByRole('link', { name: 'notes.txt' }).getAttribute('href');
    const download = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, text: await res.text() };
    }, href!);
    expect(download).toEqual({ status: 200, text: 'cookie path is /api' });

    await page.getByLabel('Files to attach').setInputFiles({
      name: 'huge.log',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(4096, 'x'),
    });
    await files.getByRole('alert').getByText('huge.log is too large (4.0 KB)').waitFor();
    await expectAccessible(page, 'task page with files');

    await files.getByRole('button', { name: 'Delete file notes.txt' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('notes.txt is removed from the task').waitFor();
    await confirm.getByRole('button', { name: 'Delete file' }).click();
    await files.getByRole('link', { name: 'notes.txt' }).waitFor({ state: 'detached' });
    const listed = (await uiApi(page, 'GET', `/boards/${boardId}/tasks/${taskId}/assets`)).body as {
      data: { filename: string; source: string }[];
    };
    expect(listed.data.map((a) => [a.filename, a.source])).toEqual([['trace.svg', 'user']]);
  });

  it('follows changes made through the external API while the task is open', async () => {
    // The tab's live stream answering: the changes below are ones it must hear about.
    const stream = page.waitForResponse((response) => response.url().includes(`/boards/${boardId}/events`));
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    await page.getByRole('heading', { name: 'Fix the login bug', level: 1 }).waitFor();
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByRole('listitem').first().waitFor();
    expect((await stream).status()).toBe(200);

    let started = Date.now();
    const body = 'Pushed the fix; please check on Safari.';
    const comment = { body, source: 'agent', authorName: 'Claude' };
    expect((await ext('POST', '/comments', comment)).status).toBe(201);
    await page.getByText(body).waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000); // pushed, not polled; room for a busy machine
    await activity.getByRole('listitem').first().getByText('commented').waitFor({ timeout: 10_000 });

    started = Date.now();
    expect((await ext('POST', '/todos', { text: 'Check on Safari', iteration: 0 })).status).toBe(201);
    await page.getByRole('checkbox', { name: 'Check on Safari' }).waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000); // pushed, not polled; room for a busy machine

    started = Date.now();
    expect((await ext('PATCH', '', { title: 'Fix the Safari login bug' })).status).toBe(200);
    await page
      .getByRole('heading', { name: 'Fix the Safari login bug', level: 1 })
      .waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000); // pushed, not polled; room for a busy machine
    await activity.getByRole('listitem').first().getByText('edited the task').waitFor({ timeout: 10_000 });
    expect((await ext('PATCH', '', { title: 'Fix the login bug' })).status).toBe(200);
    await page.getByRole('heading', { name: 'Fix the login bug', level: 1 }).waitFor();
  });

  it('lists the task’s activity, newest first, paged', async () => {
    for (let i = 0; i < 21; i++) {
      expect((await ext('POST', '/todos', { text: `Step ${i}`, iteration: 1 })).status).toBe(201);
    }
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    const activity = page.getByRole('region', { name: 'Activity' });
    const rows = activity.getByRole('listitem');
    await activity.getByText('“Step 20”').waitFor();
    // The newest page: 20 rows, the key's todos, marked as coming through the API.
    expect(await rows.count()).toBe(20);
    await expect
      .poll(() => rows.first().textContent())
      .toMatch(/^agent\(API key\)added a todo“Step 20”via API/);
    await activity.getByRole('button', { name: 'Show older activity' }).click();
    await activity.getByText('Ada Owner', { exact: true }).first().waitFor();
    await expect.poll(() => rows.count()).toBeGreaterThan(20);
    // Paging to the end reaches the task's creation by the person, and the button goes away.
    const all = (
      (await uiApi(page, 'GET', `/boards/${boardId}/tasks/${taskId}/activities?limit=200`)).body as {
        data: unknown[];
      }
    ).data.length;
    for (let shown = await rows.count(); shown < all; shown = await rows.count()) {
      await activity.getByRole('button', { name: 'Show older activity' }).click();
      await expect.poll(() => rows.count()).toBeGreaterThan(shown);
    }
    await activity.getByRole('button', { name: 'Show older activity' }).waitFor({ state: 'detached' });
    await expect
      .poll(() => rows.last().textContent())
      .toMatch(/^Ada Owner\(person\)created the taskvia web UI/);
    await expectAccessible(page, 'task page with activity');
  });
});
