import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLaneAndTask, type BoardWorld, createAgentWithKey, openBoardWorld } from './fixtures.js';
import { expectAccessible, screenshot } from './support.js';

/** The board's history says who did what (a person, an agent, a key) and through what (UI, API, MCP). */
describe('board history in the browser', { timeout: 60_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;

  beforeAll(async () => {
    world = await openBoardWorld({ boardName: 'Release' });
    ({ page, boardId } = world);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('lists each change with its actor, the actor’s kind and the entry point, linked to its task', async () => {
    const { laneId, taskId } = await addLaneAndTask(page, boardId, {
      lane: 'Todo',
      task: 'Ship the release',
    });
    const { key: agentKey } = await createAgentWithKey(page, { agent: 'Claude', key: 'runner' });
    const comment = await fetch(
      `${world.server.baseUrl}/api/ext/v1/boards/${boardId}/tasks/${taskId}/comments`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agentKey}`,
          'content-type': 'application/json',
          'x-laneboard-origin': 'mcp',
        },
        body: JSON.stringify({ body: 'On it.', authorName: 'Claude' }),
      },
    );
    expect(comment.status).toBe(201);
    const byKey = await world.ext('POST', `/boards/${boardId}/tasks`, { title: 'Write the notes', laneId });
    expect(byKey.status).toBe(201);

    await page.goto(`/boards/${boardId}`);
    await page.getByRole('link', { name: 'History' }).click();
    await page.waitForURL(`**/boards/${boardId}/history`);
    const rows = page.locator('li[data-activity]');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    const texts = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
    expect(texts[0]).toMatch(/^agent \(API key\) created the task Write the notes via API/);
    expect(texts[1]).toMatch(/^Claude \(agent\) commented Ship the release via MCP/);
    expect(texts).toContainEqual(
      expect.stringMatching(/^Ada Owner \(person\) added a lane “Todo” via web UI/),
    );
    expect(texts.at(-1)).toMatch(/^Ada Owner \(person\) created the board via web UI/);
    await page.getByRole('link', { name: 'Write the notes' }).click();
    await page.waitForURL(`**/boards/${boardId}/tasks/**`);
    await page.goBack();
    await expectAccessible(page, 'board history');
    await screenshot(page, 'board-history');
  });
});
