import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  pickUpWithKeyboard,
  screenshot,
  setUpOwner,
  signIn,
  startUiServer,
  type UiServer,
  uiApi,
} from './support.js';

interface Comment {
  id: string;
  reactions: { content: string; count: number; mine?: boolean }[];
}

describe('the task page in the browser', { timeout: 60_000 }, () => {
  let server: UiServer;
  let browser: Browser;
  let page: Page;
  let boardId: string;
  let taskId: string;
  let key: string;
  let laneId: string;

  const ext = (method: string, path: string, body?: unknown) =>
    fetch(`${server.baseUrl}/api/ext/v1/boards/${boardId}/tasks/${taskId}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  const comments = async () =>
    ((await uiApi(page, 'GET', `/boards/${boardId}/tasks/${taskId}/comments`)).body as { data: Comment[] })
      .data;

  beforeAll(async () => {
    // A small upload limit so the 413 path is reachable with a tiny file.
    server = await startUiServer({ LANEBOARD_ASSET_MAX_BYTES: '2048' });
    browser = await launchBrowser();
    page = await (await newContext(browser, server.baseUrl)).newPage();
    await setUpOwner(page);
    boardId = ((await uiApi(page, 'POST', '/boards', { name: 'Roadmap' })).body as { data: { id: string } })
      .data.id;
    laneId = (
      (await uiApi(page, 'POST', `/boards/${boardId}/lanes`, { name: 'Doing' })).body as {
        data: { id: string };
      }
    ).data.id;
    taskId = (
      (await uiApi(page, 'POST', `/boards/${boardId}/tasks`, { title: 'Fix the login bug', laneId }))
        .body as {
        data: { id: string };
      }
    ).data.id;
    const created = await uiApi(page, 'POST', '/keys', { name: 'agent', allBoards: true, grants: [] });
    key = (created.body as { data: { key: string } }).data.key;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
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
    await expect.poll(() => reproduce.isChecked(), { timeout: 2000 }).toBe(true);
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
      const other = await (await newContext(browser, server.baseUrl, options)).newPage();
      await signIn(other, 'ada@example.com');
      await other.waitForURL((url) => url.pathname === '/');
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
    await page.getByText(body).waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await activity.getByRole('listitem').first().getByText('commented').waitFor({ timeout: 1000 });

    started = Date.now();
    expect((await ext('POST', '/todos', { text: 'Check on Safari', iteration: 0 })).status).toBe(201);
    await page.getByRole('checkbox', { name: 'Check on Safari' }).waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);

    started = Date.now();
    expect((await ext('PATCH', '', { title: 'Fix the Safari login bug' })).status).toBe(200);
    await page
      .getByRole('heading', { name: 'Fix the Safari login bug', level: 1 })
      .waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await activity.getByRole('listitem').first().getByText('edited the task').waitFor({ timeout: 1000 });
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
    await expect.poll(() => rows.first().textContent()).toMatch(/^agentadded a todo“Step 20”API/);
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
    await expect.poll(() => rows.last().textContent()).toMatch(/^Ada Ownercreated the task/);
    await expectAccessible(page, 'task page with activity');
  });

  it('shows an agent’s captured turns (screenshot for the docs)', async () => {
    // A fresh task, so the picture shows an agent's work and not the other tests' leftovers.
    taskId = (
      (
        await uiApi(page, 'POST', `/boards/${boardId}/tasks`, {
          title: 'Safari users are signed out on reload',
          laneId,
          priority: 3,
          tags: ['auth', 'safari'],
          description: 'Reported by two customers. Happens on **Safari 18** only.',
        })
      ).body as { data: { id: string } }
    ).data.id;
    for (const text of ['Reproduce on Safari', 'Fix the cookie path', 'Add a regression test']) {
      expect((await ext('POST', '/todos', { text, iteration: 0, source: 'agent' })).status).toBe(201);
    }
    expect(
      (
        await ext('POST', '/comments', {
          body: 'Fixed in the session cookie: it is now set with `Path=/`.',
          source: 'agent',
          authorName: 'Claude',
        })
      ).status,
    ).toBe(201);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, s)).toISOString();
    const turns = [
      { sourceId: 't1', role: 'user', content: 'Why does sign-in fail on Safari?', capturedAt: at(0) },
      {
        sourceId: 't2',
        role: 'assistant',
        content: 'Read(src/http/ui/ui-session.ts)',
        capturedAt: at(5),
        toolUseOnly: true,
      },
      {
        sourceId: 't3',
        role: 'assistant',
        content:
          'The session cookie is set with `Path=/api`, so Safari does not send it to `/`. I changed it to `Path=/` and added a test.',
        capturedAt: at(9),
      },
      {
        sourceId: 't4',
        role: 'user',
        content: 'Great, please also update the changelog.',
        capturedAt: at(30),
      },
      {
        sourceId: 't5',
        role: 'assistant',
        content: 'Done: CHANGELOG.md has an entry under 1.4.1.',
        capturedAt: at(41),
      },
    ].map((turn) => ({ source: 'claude', ...turn }));
    expect((await ext('POST', '/turns', { turns })).status).toBe(201);
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    await page.getByText('Why does sign-in fail on Safari?').waitFor();
    await page.getByText('Done: CHANGELOG.md has an entry under 1.4.1.').waitFor();
    await screenshot(page, 'task-agent-turns');
    await expectAccessible(page, 'task page with turns');
  });
});
