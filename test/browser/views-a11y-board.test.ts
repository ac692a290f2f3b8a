import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLanes, createAgentWithKey, extApi, type OwnerWorld, openOwnerWorld } from './fixtures.js';
import { createdId, uiApi } from './support.js';
import { checkView, MODES, openMode, startSnapshotServer } from './views-a11y-support.js';

const DENSE = 'Write the release notes for 1.4 and link every merged pull request from the changelog';
const TALK = 'Safari users are signed out on reload';

/**
 * Issue 27: the board's views (dense cards, the card menu, the keys help, the move dialog, the undo
 * toast, the task panel), the task page, its agent conversation and the board's history, each in light,
 * dark and at 390 px: no serious or critical axe violation (others printed), no sideways scroll on a phone, and a picture in
 * docs/screenshots/ (`view.png`, `view-dark.png`, `view-phone.png`).
 */
describe('board and task views in three modes', { timeout: 300_000 }, () => {
  let world: OwnerWorld;
  let boardId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // A step gets 30 s on a loaded machine: see openMode.
    world = await openOwnerWorld({ start: startSnapshotServer, timeout: 30_000 });
    const { page } = world;
    boardId = createdId(await uiApi(page, 'POST', '/boards', { name: 'Roadmap' }));
    const { agentId, key } = await createAgentWithKey(page, { agent: 'Claude', key: 'claude' });
    const asAgent = async (method: string, path: string, body?: unknown) => {
      const res = await extApi(world.server.baseUrl, key)(method, `/boards/${boardId}${path}`, body);
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
    };
    const lanes = await addLanes(page, boardId, ['Todo', 'Doing', 'Review', 'Done']);
    const me = ((await uiApi(page, 'GET', '/session')).body as { data: { id: string } }).data.id;
    const cards: Array<[string, string, Record<string, unknown>, string[]]> = [
      ['Todo', DENSE, { priority: 2, tags: ['docs', 'release', 'changelog'] }, [me, agentId]],
      ['Todo', 'Fix the login bug', { priority: 4, tags: ['bug', 'auth'] }, [me]],
      ['Todo', 'Ship it', {}, []],
      ['Doing', TALK, { priority: 3, tags: ['auth', 'safari'] }, [agentId]],
      ['Doing', 'Review the API', { tags: ['api'] }, []],
      ['Done', 'Plan the release', { priority: 1 }, [me]],
    ];
    for (const [lane, title, extra, members] of cards) {
      ids[title] = createdId(
        await uiApi(page, 'POST', `/boards/${boardId}/tasks`, {
          title,
          laneId: lanes[lane],
          description: 'Steps:\n\n1. **Collect** the merged pull requests\n2. Group them by area',
          ...extra,
        }),
      );
      for (const member of members) {
        await uiApi(page, 'PUT', `/boards/${boardId}/tasks/${ids[title]}/assignees/${member}`, {});
      }
    }
    const dense = `/tasks/${ids[DENSE]}`;
    for (const text of ['List the merged pull requests', 'Group them by area', 'Link each entry']) {
      await asAgent('POST', `${dense}/todos`, { text, iteration: 0, source: 'agent' });
    }
    await asAgent('POST', `${dense}/comments`, { body: 'Draft is in the PR.', authorName: 'Claude' });
    await uiApi(page, 'POST', `/boards/${boardId}${dense}/comments`, { body: 'Thanks, reading it now.' });
    // Both sources on one task: the conversation's source choice and every turn's badge.
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000).toISOString();
    const turns = [
      ['claude', 't1', 'user', 'Why does sign-in fail on Safari?', false],
      ['claude', 't2', 'assistant', 'Read(src/http/ui/ui-session.ts)', true],
      ['claude', 't3', 'assistant', 'The cookie is set with `Path=/api`; I changed it to `Path=/`.', false],
      ['copilot', 'c1', 'assistant', 'Renamed the session helper.', false],
    ] as const;
    await asAgent('POST', `/tasks/${ids[TALK]}/turns`, {
      turns: turns.map(([source, sourceId, role, content, toolUseOnly], i) => ({
        source,
        sourceId,
        role,
        content,
        capturedAt: at(i),
        ...(toolUseOnly ? { toolUseOnly } : {}),
      })),
    });
  }, 240_000);
  afterAll(async () => {
    await world?.close();
  });

  const lane = (page: Page, name: string) => page.getByRole('region', { name });
  const openCardMenu = async (page: Page, title: string) => {
    const card = page.getByRole('listitem', { name: title });
    await card.hover();
    await card.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: /Move to…/ }).waitFor();
  };

  for (const mode of MODES) {
    it(`the board, its dialogs and the task panel (${mode.name})`, async () => {
      const page = await openMode(world.browser, world.server.baseUrl, mode, 'ada@example.com');
      try {
        await page.goto(`/boards/${boardId}`);
        await lane(page, 'Todo').getByRole('listitem', { name: DENSE }).waitFor();
        await page.locator('[data-at-work]').first().waitFor();
        await checkView(page, mode, 'board-dense');

        await openCardMenu(page, DENSE);
        await checkView(page, mode, 'board-card-menu', { window: true });
        await page.keyboard.press('Escape');

        await page.getByRole('heading', { name: 'Roadmap', level: 1 }).click();
        await page.keyboard.press('Shift+?');
        const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
        await help.getByText('Filter tasks').waitFor();
        await checkView(page, mode, 'board-shortcuts', { window: true });
        await page.keyboard.press('Escape');
        await help.waitFor({ state: 'detached' });

        await openCardMenu(page, 'Ship it');
        await page.getByRole('menuitem', { name: /Move to…/ }).click();
        const move = page.getByRole('dialog');
        await move.getByLabel('Lane').selectOption({ label: 'Review' });
        await checkView(page, mode, 'board-move-dialog', { window: true });
        await move.getByRole('button', { name: 'Move' }).click();
        await lane(page, 'Review').getByRole('listitem', { name: 'Ship it' }).waitFor();
        // The pointer on the toast holds its 8 s timer (sonner), so Undo is still there after axe and the picture.
        await page.getByText('“Ship it” moved to Review').hover();
        await checkView(page, mode, 'board-undo', { window: true, toasts: true });
        await page.getByRole('button', { name: 'Undo' }).click();
        await lane(page, 'Todo').getByRole('listitem', { name: 'Ship it' }).waitFor();

        if (mode.name === 'phone') {
          await page.getByRole('navigation', { name: 'Lanes' }).getByRole('button', { name: 'Todo' }).click();
        }
        await lane(page, 'Todo').getByRole('link', { name: DENSE }).click();
        const panel = page.getByRole('dialog', { name: DENSE });
        await panel.getByRole('checkbox', { name: 'Link each entry' }).waitFor();
        await panel.getByText('Thanks, reading it now.').waitFor();
        await checkView(page, mode, 'task-panel', { window: true });
        await page.keyboard.press('Escape');
        await panel.waitFor({ state: 'detached' });
      } finally {
        await page.context().close();
      }
    });

    it(`the task page, its agent conversation and the board history (${mode.name})`, async () => {
      const page = await openMode(world.browser, world.server.baseUrl, mode, 'ada@example.com');
      try {
        await page.goto(`/boards/${boardId}/tasks/${ids[DENSE]}`);
        await page.getByRole('heading', { name: DENSE, level: 1 }).waitFor();
        await page.getByRole('checkbox', { name: 'Link each entry' }).waitFor();
        await page.getByText('Thanks, reading it now.').waitFor();
        await checkView(page, mode, 'task-page');

        await page.goto(`/boards/${boardId}/tasks/${ids[TALK]}`);
        const talk = page.locator('section[aria-labelledby="turns-heading"]');
        await talk.getByText('Why does sign-in fail on Safari?').waitFor();
        await talk.getByText('Tool use', { exact: false }).click();
        await talk.getByText(/I changed it to/).waitFor();
        expect(await talk.getByRole('radio', { name: 'Claude' }).isChecked()).toBe(true);
        await checkView(page, mode, 'task-conversation', { element: talk });
        await talk.getByRole('radio', { name: 'Copilot' }).check();
        await talk.getByText('Renamed the session helper.').waitFor();
        await checkView(page, mode, 'task-conversation-copilot', { picture: false });

        await page.goto(`/boards/${boardId}/history`);
        await expect
          .poll(() => page.locator('li[data-activity]').count(), { timeout: 10_000 })
          .toBeGreaterThan(10);
        await checkView(page, mode, 'history-page');
      } finally {
        await page.context().close();
      }
    });
  }
});
