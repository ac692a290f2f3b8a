import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, useFixture, useTestApp } from '../support/dialects.js';
import { buildUiTestApp, type UiTestApp } from '../ui/ui-support.js';
import { type Corpus, createCorpus, type SearchBody, search } from './search-fixtures.js';
import { createTask } from './task-fixtures.js';

describeEachDialect('search: changes, paging and the web UI', (dialect) => {
  const t = useTestApp(dialect);
  let c: Corpus;
  beforeAll(async () => {
    c = await createCorpus(t);
  });

  const ids = (body: SearchBody) => body.data.map((r) => r.taskId);
  const patch = async (taskId: string, body: unknown) => {
    const res = await t.request(c.allKey, 'PATCH', `${c.urlA}/tasks/${taskId}`, body);
    expect(res.statusCode, res.body).toBe(200);
  };

  it('follows edits: an old word is gone, the new one found, in the same transaction', async () => {
    await patch(c.report, { description: 'Add the pomegranate section.' });
    expect(ids(await search(t, c.readAKey, { q: 'pomegranate' }))).toEqual([c.report]);
    await patch(c.report, { description: 'Add the apricot section.', tags: ['orchard'] });
    expect((await search(t, c.readAKey, { q: 'pomegranate' })).data).toEqual([]);
    expect((await search(t, c.readAKey, { q: 'zebrafish' })).data).toEqual([]);
    expect(ids(await search(t, c.readAKey, { q: 'apricot' }))).toEqual([c.report]);
    expect(ids(await search(t, c.readAKey, { q: 'orchard' }))).toEqual([c.report]);
    await patch(c.report, { title: 'Yearly summary' });
    const renamed = await search(t, c.readAKey, { q: 'kumquat' });
    expect(renamed.data[0]?.title).toBe('Yearly summary');
    expect((await search(t, c.readAKey, { q: 'quarterly' })).data).toEqual([]);
  });

  it('follows archiving and deleting', async () => {
    await patch(c.login, { archived: true });
    expect((await search(t, c.readAKey, { q: 'marmalade' })).data).toEqual([]);
    expect(ids(await search(t, c.readAKey, { q: 'marmalade', includeArchived: 'true' }))).toEqual([c.login]);
    await patch(c.login, { archived: false });
    expect(ids(await search(t, c.readAKey, { q: 'marmalade' }))).toEqual([c.login]);

    const removed = await t.request(c.allKey, 'DELETE', `${c.urlA}/tasks/${c.login}/comments/${c.commentId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await search(t, c.readAKey, { q: 'marmalade' })).data).toEqual([]);

    // Deleting a task takes its turns (deleted by the foreign key's cascade) out too.
    const deleted = await t.request(c.allKey, 'DELETE', `${c.urlA}/tasks/${c.pipeline}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await search(t, c.readAKey, { q: 'xylophone' })).data).toEqual([]);
    expect((await search(t, c.readAKey, { q: 'rewrite' })).data).toEqual([]);
  });

  it('pages through every match once with the cursor', async () => {
    const board = { key: c.allKey, boardId: c.boardA, laneIds: [], url: c.urlA };
    const laneId = (await t.request(c.allKey, 'GET', `${c.urlA}/lanes`)).json().data[0].id as string;
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      created.push((await createTask(t, board, { laneId, title: `Pagination probe ${i}` })).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params: Record<string, string> = { q: 'pagination probe', limit: '3' };
      if (cursor !== null) params.cursor = cursor;
      const body = await search(t, c.readAKey, params);
      expect(body.data.length).toBeLessThanOrEqual(3);
      seen.push(...ids(body));
      cursor = body.cursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(created.sort());
  });
});

describeEachDialect('search: the web UI route', (dialect) => {
  const ui = useFixture<UiTestApp>(
    `the ${dialect} UI test app`,
    () => buildUiTestApp(dialect),
    (app) => app.close(),
  );

  it('searches every board as the signed-in person, and needs a session', async () => {
    const { browser } = await ui.person('member');
    const made = await browser.request('POST', '/api/ui/boards', { name: 'UI board' });
    expect(made.statusCode, made.body).toBe(201);
    const boardId = made.json().data.id as string;
    const lane = await browser.request('POST', `/api/ui/boards/${boardId}/lanes`, { name: 'Todo' });
    const laneId = lane.json().data.id as string;
    const task = await browser.request('POST', `/api/ui/boards/${boardId}/tasks`, {
      laneId,
      title: 'Calibrate the theodolite',
    });
    expect(task.statusCode, task.body).toBe(201);
    const found = await browser.request('GET', '/api/ui/search?q=theodol');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toMatchObject({
      data: [
        { kind: 'task', boardId, title: 'Calibrate the theodolite', snippet: expect.stringContaining('[[') },
      ],
      cursor: null,
    });
    const anonymous = await ui.browser().request('GET', '/api/ui/search?q=theodolite');
    expect(anonymous.statusCode).toBe(401);
    const bad = await browser.request('GET', '/api/ui/search?q=');
    expect(bad.statusCode).toBe(400);
  });
});
