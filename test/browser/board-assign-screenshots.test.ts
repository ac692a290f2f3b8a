import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addLanes,
  type BoardWorld,
  createAgentWithKey,
  type ExtApi,
  extApi,
  openBoardWorld,
  signedInPage,
} from './fixtures.js';
import { createdId, expectAccessible, screenshot, uiApi } from './support.js';

/** The pictures of a board with assignees and an agent at work, for the docs (issue 26). */
describe('a board with assignees, pictured', { timeout: 120_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let agentId: string;
  /**
   * The external API with the agent's own key: its turns and comments are the agent's, so its cards show it
   * at work.
   */
  let asAgent: ExtApi;

  beforeAll(async () => {
    world = await openBoardWorld();
    ({ page } = world);
    const agent = await createAgentWithKey(page, { agent: 'Claude', key: 'claude-key' });
    agentId = agent.agentId;
    asAgent = extApi(world.server.baseUrl, agent.key);
  }, 240_000);
  afterAll(async () => {
    await world?.close();
  });

  it('screenshots: a board with assignees and an agent at work (light, dark, phone)', async () => {
    const launch = createdId(await uiApi(page, 'POST', '/boards', { name: 'Launch' }));
    const lanes = await addLanes(page, launch, ['Todo', 'Doing', 'Review']);
    const me = ((await uiApi(page, 'GET', '/session')).body as { data: { id: string } }).data.id;
    const cards: Array<[string, string, Record<string, unknown>, string[]]> = [
      ['Todo', 'Pricing page copy', { tags: ['web'], priority: 2 }, [me]],
      ['Todo', 'Rate limit the export endpoint', { tags: ['api'], priority: 3 }, [agentId]],
      ['Todo', 'Billing e-mails in Spanish', { tags: ['i18n'] }, []],
      ['Doing', 'Fix the flaky sign-in test', { tags: ['ci', 'auth'], priority: 4 }, [agentId, me]],
      ['Doing', 'Onboarding checklist', { tags: ['web'], priority: 1 }, [me]],
      ['Review', 'Webhook retries documented', { tags: ['docs'] }, [agentId]],
    ];
    const ids: Record<string, string> = {};
    for (const [lane, title, extra, members] of cards) {
      const id = createdId(
        await uiApi(page, 'POST', `/boards/${launch}/tasks`, { title, laneId: lanes[lane], ...extra }),
      );
      ids[title] = id;
      for (const member of members) {
        await uiApi(page, 'PUT', `/boards/${launch}/tasks/${id}/assignees/${member}`, {});
      }
    }
    const flaky = ids['Fix the flaky sign-in test'];
    const turn = { source: 'claude', role: 'assistant', capturedAt: new Date().toISOString() };
    const pushed = await asAgent('POST', `/boards/${launch}/tasks/${flaky}/turns`, {
      turns: [{ ...turn, sourceId: 'shot-1', content: 'The test waits for a fixed 1 s; using the event.' }],
    });
    expect(pushed.status).toBe(201);
    const commented = await asAgent(
      'POST',
      `/boards/${launch}/tasks/${ids['Webhook retries documented']}/comments`,
      { body: 'Ready for review.', authorName: 'Claude' },
    );
    expect(commented.status).toBe(201);

    await page.goto(`/boards/${launch}`);
    await expect.poll(() => page.locator('[data-at-work]').count()).toBe(2);
    await expectAccessible(page, 'board with assignees and an agent at work');
    await screenshot(page, 'board-assignees');
    for (const options of [{ dark: true }, { phone: true }]) {
      const other = await signedInPage(world, options);
      try {
        await other.goto(`/boards/${launch}`);
        // On a phone one lane fills the screen: the lane tabs bring the agent's lane into view.
        if (options.phone) {
          await other
            .getByRole('navigation', { name: 'Lanes' })
            .getByRole('button', { name: 'Doing' })
            .click();
        }
        await other.locator('[data-at-work]').first().waitFor();
        await expectAccessible(other, `board with assignees (${JSON.stringify(options)})`);
        await screenshot(other, options.dark ? 'board-assignees-dark' : 'board-assignees-phone');
      } finally {
        await other.context().close();
      }
    }
  });
});
