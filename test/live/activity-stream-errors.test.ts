import { afterEach, expect, it } from 'vitest';
import { ActivityRetention } from '../../src/domain/activities/activity-retention.js';
import { describeEachDialect } from '../support/dialects.js';
import { OPERATOR } from '../ui/ui-support.js';
import { cursorPosition, openEventStream, poll } from './activity-stream-client.js';
import { useListeningUiApp } from './live-app.js';
import type { SseClient } from './sse-client.js';

/** The activity stream's refusals: bad positions and parameters (400) and expired cursors (410). */
describeEachDialect('activity stream refusals', (dialect) => {
  const t = useListeningUiApp(dialect);
  const streams: SseClient[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  const ui = async (method: 'POST', url: string, body?: unknown) => {
    const res = await t.ada.browser.request(method, `/api/ui${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: string };
  };
  async function newBoard() {
    const board = await ui('POST', '/boards', { name: 'Stream' });
    const lane = await ui('POST', `/boards/${board.id}/lanes`, { name: 'Todo' });
    return { boardId: board.id, laneId: lane.id };
  }
  const keyOf = () =>
    t.services.apiKeys.createKey(OPERATOR, { name: 'Integration', allBoards: true, grants: [] });
  const open = async (key: string, query: Record<string, string> = {}) => {
    const stream = await openEventStream(t.base, key, query);
    streams.push(stream);
    return stream;
  };

  it('refuses a wait over 30 seconds, a garbled cursor and a cursor from the future (400, field named)', async () => {
    const key = await keyOf();
    const cases: Array<[Record<string, string | number>, Record<string, string>, string]> = [
      [{ wait: 31 }, {}, 'wait'],
      [{ wait: -1 }, {}, 'wait'],
      [{ limit: 0 }, {}, 'limit'],
      [{ since: 'yesterday' }, {}, 'since'],
      [{ after: 'not-a-cursor' }, {}, 'after'],
      [{ after: Buffer.from('a1:999999999').toString('base64url') }, {}, 'after'],
      [{}, { 'last-event-id': '12' }, 'Last-Event-ID'],
    ];
    for (const [query, headers, field] of cases) {
      const res = await poll(t.app, key.key, query, headers);
      expect([res.status, res.body.error?.code], JSON.stringify(query)).toEqual([400, 'validation_error']);
      expect(res.body.error?.message).toContain(field);
    }
    const sse = await open(key.key, { after: 'garbled!' });
    expect(sse.status).toBe(400);
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/api/ext/v1/events' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  // Last: retention removes history every other test relies on.
  it('answers 410 cursor_expired for a cursor older than the retention window', async () => {
    const { boardId, laneId } = await newBoard();
    const key = await keyOf();
    const { cursor } = (await poll(t.app, key.key)).body;
    await ui('POST', `/boards/${boardId}/tasks`, { title: 'Old', laneId });
    const old = (await poll(t.app, key.key, { after: cursor })).body;
    expect(old.data).toHaveLength(1);
    t.clock.ms += 25 * 3_600_000;
    await ui('POST', `/boards/${boardId}/tasks`, { title: 'New', laneId });
    const retention = new ActivityRetention({
      database: t.db.database,
      clock: t.clock,
      log: { warn: () => {} },
      retentionMs: 24 * 3_600_000,
    });
    expect(await retention.pruneOnce()).toBeGreaterThan(0);
    for (const res of [
      await poll(t.app, key.key, { after: cursor }),
      await poll(t.app, key.key, {}, { 'last-event-id': cursor }),
    ]) {
      expect([res.status, res.body.error?.code]).toEqual([410, 'cursor_expired']);
    }
    const sse = await open(key.key, { after: cursor });
    expect([sse.status, JSON.parse(sse.error).error.code]).toEqual([410, 'cursor_expired']);
    // The last event before the pruned history ends still resumes: nothing after it is gone.
    const newest = await poll(t.app, key.key, { after: old.cursor });
    expect(newest.status).toBe(200);
    expect(newest.body.data.map((e) => e.data.title)).toEqual(['New']);
    const fromNow = await poll(t.app, key.key);
    expect(fromNow.status).toBe(200);
    expect(cursorPosition(fromNow.body.cursor)).toBeGreaterThan(cursorPosition(old.cursor));
  });
});
