import { expect, it } from 'vitest';
import { multipartBody } from '../integration/asset-fixtures.js';
import { RecordingEvents } from '../integration/recording-events.js';
import { describeEachDialect } from '../support/dialects.js';
import { useUiTestApp } from './ui-support.js';

/* The board UI's asset and reaction routes under /api/ui: the person is the actor, no webhook fires. */
describeEachDialect('UI assets and reactions', (dialect) => {
  const events = new RecordingEvents();

  const t = useUiTestApp(dialect, { activities: events });

  it('uploads, downloads and reacts as the signed-in person', async () => {
    const { browser } = await t.person('member', 'Grace');
    const board = (await browser.request('POST', '/api/ui/boards', { name: 'UI' })).json().data;
    const b = `/api/ui/boards/${board.id}`;
    const lane = (await browser.request('POST', `${b}/lanes`, { name: 'L' })).json().data;
    const task = (await browser.request('POST', `${b}/tasks`, { title: 'T', laneId: lane.id })).json().data;
    const { payload, contentType } = multipartBody([
      { name: 'file', filename: 'shot.png', contentType: 'image/png', content: Buffer.from([1, 2, 3]) },
    ]);
    const uploaded = await browser.request('POST', `${b}/tasks/${task.id}/assets`, payload, {
      'content-type': contentType,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json().data).toMatchObject({ filename: 'shot.png', size: 3, source: 'user' });
    const content = await browser.request(
      'GET',
      `${b}/tasks/${task.id}/assets/${uploaded.json().data.id}/content`,
    );
    expect(content.rawPayload).toEqual(Buffer.from([1, 2, 3]));
    expect(content.headers['content-security-policy']).toBe('sandbox');

    const comment = (await browser.request('POST', `${b}/tasks/${task.id}/comments`, { body: 'Nice' })).json()
      .data;
    const reaction = `${b}/tasks/${task.id}/comments/${comment.id}/reactions/hooray`;
    expect((await browser.request('PUT', reaction)).statusCode).toBe(201);
    expect((await browser.request('PUT', reaction)).statusCode).toBe(200);
    const list = (await browser.request('GET', `${b}/tasks/${task.id}/comments`)).json().data;
    expect(list[0].reactions).toEqual([{ content: 'hooray', count: 1, mine: true }]);
    // A cross-site upload (another Origin) is refused like every other UI change.
    const foreign = await browser.request('POST', `${b}/tasks/${task.id}/assets`, payload, {
      'content-type': contentType,
      origin: 'https://evil.example',
    });
    expect(foreign.statusCode).toBe(403);
    expect(events.take()).toEqual([]);
  });
});
