import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLaneAndTask, type BoardWorld, openBoardWorld } from './fixtures.js';
import { expectAccessible, screenshot, uiApi } from './support.js';

const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, s)).toISOString();

/** Claude's turns on the Safari bug, from 10:00 on 23 Nov 2026: a question, a tool use, `answer`, `later`. */
function safariTurns(
  answer: string,
  later: Array<{ sourceId: string; role: string; content: string; capturedAt: string }> = [],
) {
  return [
    { sourceId: 't1', role: 'user', content: 'Why does sign-in fail on Safari?', capturedAt: at(0) },
    {
      sourceId: 't2',
      role: 'assistant',
      content: 'Read(src/http/ui/ui-session.ts)',
      capturedAt: at(5),
      toolUseOnly: true,
    },
    { sourceId: 't3', role: 'assistant', content: answer, capturedAt: at(9) },
    ...later,
  ].map((turn) => ({ source: 'claude', ...turn }));
}

/** A task an agent works on: its page from the board, its Markdown, comments, todos and captured turns. */
describe('an agent’s task in the browser', { timeout: 60_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  let taskId: string;
  let laneId: string;

  const lane = (name: string) => page.getByRole('region', { name });
  /** The external API on this task, with the agent's key. */
  const ext = (method: string, path: string, body?: unknown) =>
    world.ext(method, `/boards/${boardId}/tasks/${taskId}${path}`, body);
  /** A comment on this task by the agent, through the external API. */
  const agentComment = (body: string) =>
    ext('POST', '/comments', { body, source: 'agent', authorName: 'Claude' });

  beforeAll(async () => {
    world = await openBoardWorld();
    ({ page, boardId } = world);
    ({ laneId, taskId } = await addLaneAndTask(page, boardId, { lane: 'Todo', task: 'Fix the login bug' }));
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('opens a task at its own URL: Markdown sanitised, comments with badges, todos, the agent turns', async () => {
    await page.goto(`/boards/${boardId}`);
    expect((await agentComment('Found it: the **cookie** path.')).status).toBe(201);
    const turns = safariTurns('The cookie is set with the wrong path; fixed.');
    expect((await ext('POST', '/turns', { turns })).status).toBe(201);

    await lane('Todo').getByRole('link', { name: 'Fix the login bug' }).click();
    await page.waitForURL(`**/boards/${boardId}/tasks/${taskId}`);
    await page.getByRole('heading', { name: 'Fix the login bug', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page
      .getByLabel('Description (Markdown)')
      .fill(
        'Steps:\n\n1. **Open** Safari\n\n<script>window.pwned = 1</script><img src=x onerror="window.pwned=2">',
      );
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('strong', { hasText: 'Open' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    // Opened from the board, the task is a panel (a dialog) over it.
    const panel = page.getByRole('dialog', { name: 'Fix the login bug' });
    await panel.waitFor();
    expect(await panel.locator('script, img').count()).toBe(0);

    await page.getByLabel('Add a comment').fill('I will look at it.');
    await page.getByRole('button', { name: 'Comment' }).click();
    const mine = page.getByRole('listitem', { name: 'Comment by Ada Owner' });
    await mine.getByText('person').waitFor();
    await page.getByRole('listitem', { name: 'Comment by Claude' }).getByText('agent').waitFor();

    await page.getByLabel('New todo').fill('Reproduce on Safari');
    await page.getByLabel('New todo').press('Enter');
    await page.getByRole('checkbox', { name: 'Reproduce on Safari' }).click();
    await panel.getByText('1/1').waitFor();

    await page.getByText('Why does sign-in fail on Safari?').waitFor();
    await page.getByText('Tool use', { exact: false }).click();
    await page.getByText('The cookie is set with the wrong path; fixed.').waitFor();
    await screenshot(page, 'task');
    await expectAccessible(page, 'task page');
    await page.goto(`/boards/${boardId}`);
    await lane('Todo').waitFor();
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
    const commented = await agentComment('Fixed in the session cookie: it is now set with `Path=/`.');
    expect(commented.status).toBe(201);
    const turns = safariTurns(
      'The session cookie is set with `Path=/api`, so Safari does not send it to `/`. I changed it to `Path=/` and added a test.',
      [
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
      ],
    );
    expect((await ext('POST', '/turns', { turns })).status).toBe(201);
    await page.goto(`/boards/${boardId}/tasks/${taskId}`);
    await page.getByText('Why does sign-in fail on Safari?').waitFor();
    await page.getByText('Done: CHANGELOG.md has an entry under 1.4.1.').waitFor();
    await screenshot(page, 'task-agent-turns');
    await expectAccessible(page, 'task page with turns');
  });

  it('opens the conversation on the source that has turns, each turn badged with its source', async () => {
    const copilotTask = await world.ext('POST', `/boards/${boardId}/tasks`, {
      title: 'Copilot only',
      laneId,
    });
    const { data } = (await copilotTask.json()) as { data: { id: string } };
    const at = new Date(Date.UTC(2026, 10, 24, 9, 0, 0)).toISOString();
    const posted = await world.ext('POST', `/boards/${boardId}/tasks/${data.id}/turns`, {
      turns: [
        {
          source: 'copilot',
          sourceId: 'c1',
          role: 'assistant',
          content: 'Renamed the helper.',
          capturedAt: at,
        },
      ],
    });
    expect(posted.status).toBe(201);
    await page.goto(`/boards/${boardId}/tasks/${data.id}`);
    const turn = page.getByRole('listitem').filter({ hasText: 'Renamed the helper.' });
    await turn.getByText('Copilot', { exact: true }).waitFor();
    expect(await page.getByRole('radio', { name: 'Copilot' }).isChecked()).toBe(true);
    // Claude stays one click away, and says it has nothing.
    await page.getByRole('radio', { name: 'Claude' }).check();
    await page.getByText('No captured turns from Claude').waitFor();
    await expectAccessible(page, 'task page, Copilot turns');
  });
});
