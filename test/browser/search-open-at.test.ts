import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLaneAndTask, type BoardWorld, createAgentWithKey, extApi, openBoardWorld } from './fixtures.js';
import { createdId, expectAccessible, SCREENSHOTS, uiApi } from './support.js';

/**
 * Opening a task at the text that matched or notified (issue 29): a comment or todo hit of the palette
 * or the results page, and a mention in the inbox, open the task scrolled to that text, focused and
 * briefly highlighted (`#comment-cmt_...`, `#todo-todo_...`).
 */
describe('a search hit or a notification opens the task at its comment', { timeout: 120_000 }, () => {
  let world: BoardWorld;
  let page: Page;
  let boardId: string;
  let taskId: string;
  let okapiComment: string;
  let mentionComment: string;
  let narwhalTodo: string;

  const palette = () => page.getByRole('dialog', { name: 'Search and commands' });

  /** Where the element `anchor` is, as seen. Runs in the page (the root tsconfig has no DOM types). */
  const stateOf = async (anchor: string) =>
    (await page.evaluate(`(() => {
      const element = document.getElementById(${JSON.stringify(anchor)});
      const box = element && element.getBoundingClientRect();
      return {
        highlighted: !!element && element.hasAttribute('data-highlighted'),
        inView: !!box && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight,
        focused: document.activeElement === element,
        scrollY: window.scrollY,
      };
    })()`)) as { highlighted: boolean; inView: boolean; focused: boolean; scrollY: number };

  /**
   * Records in the page every element that gets highlighted from now on: under a loaded machine the
   * 3-second mark could come and go between two polls from here. The page is a single-page app, so the
   * record survives the navigations the tests make.
   */
  const watchHighlights = () =>
    page.evaluate(`(() => {
      window.highlightedIds = [];
      new MutationObserver(() => {
        for (const element of document.querySelectorAll('[data-highlighted]')) window.highlightedIds.push(element.id);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-highlighted'] });
    })()`);

  /** The element the address points at was highlighted, is wholly in the window, and has the focus. */
  async function expectOpenedAt(anchor: string, { belowFold = true } = {}): Promise<void> {
    await page.waitForURL((url) => url.hash === `#${anchor}`);
    await expect
      .poll(
        async () => {
          const { inView } = await stateOf(anchor);
          const seen = (await page.evaluate('window.highlightedIds')) as string[];
          return inView && seen.includes(anchor);
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
    const state = await stateOf(anchor);
    expect(state.focused).toBe(true);
    // Well below the fold of a page opened at its top: the page did scroll.
    if (belowFold) expect(state.scrollY).toBeGreaterThan(200);
  }

  /** The highlight is brief: it goes, and the element stays focused. */
  async function highlightEnds(anchor: string): Promise<void> {
    await expect.poll(async () => (await stateOf(anchor)).highlighted, { timeout: 10_000 }).toBe(false);
    expect((await stateOf(anchor)).focused).toBe(true);
  }

  beforeAll(async () => {
    world = await openBoardWorld({ boardName: 'Platform' });
    ({ page, boardId } = world);
    ({ taskId } = await addLaneAndTask(page, boardId, { lane: 'Doing', task: 'Tune the caching layer' }));
    const comment = async (body: string) =>
      createdId(await uiApi(page, 'POST', `/boards/${boardId}/tasks/${taskId}/comments`, { body }));
    // Enough comments to put the later ones well below the fold of a 800-pixel window.
    for (let i = 1; i <= 10; i++) {
      await comment(`Measurement ${i}: the hit rate moved.\n\nNothing else to report on run ${i}.`);
    }
    okapiComment = await comment('The okapi benchmark shows the regression: cold starts take 40% longer.');
    for (let i = 11; i <= 13; i++) await comment(`Measurement ${i}: steady.`);
    narwhalTodo = createdId(
      await uiApi(page, 'POST', `/boards/${boardId}/tasks/${taskId}/todos`, {
        text: 'Rerun the narwhal load test',
        iteration: 1,
      }),
    );

    // An agent mentions Ada in a comment: her inbox has a line that opens at it.
    const agent = await createAgentWithKey(page, { agent: 'Claude', key: 'c' });
    const res = await extApi(world.server.baseUrl, agent.key)(
      'POST',
      `/boards/${boardId}/tasks/${taskId}/comments`,
      {
        body: '@Ada Owner the flamingo numbers are in',
        authorName: 'Claude',
      },
    );
    expect(res.status).toBe(201);
    mentionComment = ((await res.json()) as { data: { id: string } }).data.id;
    for (let i = 14; i <= 16; i++) await comment(`Measurement ${i}: steady.`);
  }, 400_000);
  afterAll(async () => {
    await world?.close();
  });

  it('the palette: Enter on a comment hit opens the task scrolled to the comment, highlighted briefly', async () => {
    await page.goto(`/boards/${boardId}`);
    await page.getByRole('button', { name: /^Search…/ }).waitFor();
    await watchHighlights();
    await page.keyboard.press('Control+k');
    await palette().getByRole('combobox').fill('okapi');
    const option = palette().getByRole('option', { name: /Tune the caching layer/ });
    await option.locator('mark', { hasText: 'okapi' }).waitFor();
    expect(await option.textContent()).toContain('Comment');
    await page.keyboard.press('Enter');

    const anchor = `comment-${okapiComment}`;
    await expectOpenedAt(anchor);
    expect(await page.locator(`#${anchor}`).textContent()).toContain('okapi benchmark');
    // The window as seen, while the comment is marked (on a very loaded machine the mark may be over:
    // the picture of an earlier run is kept rather than one without it).
    if ((await stateOf(anchor)).highlighted) {
      await page.screenshot({
        path: path.join(SCREENSHOTS, 'task-open-at-comment.png'),
        animations: 'disabled',
      });
    } else console.warn('task-open-at-comment.png not taken: the highlight was over');
    await expectAccessible(page, 'a task opened at a comment');
    await highlightEnds(anchor);
  });

  it('the results page: a todo hit links to the todo, and opens there', async () => {
    await page.goto('/search?q=narwhal');
    const link = page
      .getByRole('region', { name: 'Results' })
      .getByRole('link', { name: /Tune the caching/ });
    expect(await link.getAttribute('href')).toBe(`/boards/${boardId}/tasks/${taskId}#todo-${narwhalTodo}`);
    await watchHighlights();
    await link.click();
    // The todos are beside the comments, at the top of the window: nothing to scroll.
    await expectOpenedAt(`todo-${narwhalTodo}`, { belowFold: false });
    await highlightEnds(`todo-${narwhalTodo}`);
  });

  it('the inbox: a mention in a comment opens the task at that comment', async () => {
    await page.goto('/inbox');
    const line = page.getByRole('button', { name: /Claude mentioned you in/ });
    await line.waitFor();
    await watchHighlights();
    await line.click();
    await expectOpenedAt(`comment-${mentionComment}`);
    expect(await page.locator(`#comment-${mentionComment}`).textContent()).toContain('flamingo');
  });
});
