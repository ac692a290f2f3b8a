import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { startSecondInstance } from '../support/second-instance.js';
import { type Browser, buildUiTestApp, OPERATOR, type UiTestApp } from '../ui/ui-support.js';
import { SseClient } from './sse-client.js';

const HEARTBEAT_MS = 100;

/** The inbox stream (`GET /api/ui/notifications/events`): the unread count, live, per person. */
describeEachDialect('the inbox stream', (dialect) => {
  let t: UiTestApp;
  let base: string;
  let key: string;
  let ada: { id: string; browser: Browser };
  let bob: { id: string; browser: Browser };
  let board: { boardId: string; laneId: string; taskId: string };
  const streams: SseClient[] = [];

  const ext = async (method: 'POST' | 'PUT', url: string, body?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `/api/ext/v1${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: string };
  };
  const open = async (who: Browser, at = base) => {
    const stream = await SseClient.open(`${at}/api/ui/notifications/events`, {
      cookie: `lb_session=${who.cookie}`,
    });
    streams.push(stream);
    return stream;
  };
  const unreadEvents = (stream: SseClient) =>
    stream.events.filter((e) => e.event === 'unread').map((e) => JSON.parse(e.data).unread as number);

  beforeAll(async () => {
    t = await buildUiTestApp(dialect, {
      liveStreams: { heartbeatMs: HEARTBEAT_MS, maxStreamsPerSession: 2 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    key = (await t.services.apiKeys.createKey(OPERATOR, { name: 'Bot', allBoards: true, grants: [] })).key;
    ada = await t.person('member', 'Ada Stream');
    bob = await t.person('member', 'Bob Stream');
    const boardId = (await ext('POST', '/boards', { name: 'Live inbox' })).id;
    const laneId = (await ext('POST', `/boards/${boardId}/lanes`, { name: 'Todo' })).id;
    const taskId = (await ext('POST', `/boards/${boardId}/tasks`, { title: 'Watch', laneId })).id;
    board = { boardId, laneId, taskId };
    await t.services.inboxFeed.ready();
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends the count at once, and again when a notification arrives or one is read elsewhere', async () => {
    const stream = await open(ada.browser);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await stream.next((e) => e.event === 'unread');
    const first = unreadEvents(stream)[0] as number;

    const started = Date.now();
    await ext('POST', `/boards/${board.boardId}/tasks/${board.taskId}/comments`, {
      body: '@Ada Stream look',
      authorName: 'Bot',
    });
    await stream.next((e) => e.event === 'unread' && JSON.parse(e.data).unread === first + 1);
    expect(Date.now() - started).toBeLessThan(5000);

    // Bob hears nothing of Ada's inbox.
    const bobs = await open(bob.browser);
    await bobs.next((e) => e.event === 'unread');
    expect(unreadEvents(bobs)).toEqual([0]);

    // Read in another tab: this one's badge follows.
    expect((await ada.browser.request('POST', '/api/ui/notifications/read-all')).statusCode).toBe(200);
    await stream.next((e) => e.event === 'unread' && JSON.parse(e.data).unread === 0);
    expect(unreadEvents(bobs)).toEqual([0]);
  });

  it('refuses a stream without a session, and more than the per-session limit', async () => {
    const anonymous = await SseClient.open(`${base}/api/ui/notifications/events`, {});
    expect(anonymous.status).toBe(401);
    await open(bob.browser);
    await open(bob.browser);
    const third = await open(bob.browser);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.error).error.code).toBe('rate_limited');
  });

  it('ends with signed-out when the session ends', async () => {
    const carol = await t.person('member', 'Carol Stream');
    const stream = await open(carol.browser);
    await stream.next((e) => e.event === 'unread');
    expect((await carol.browser.request('DELETE', '/api/ui/session')).statusCode).toBe(204);
    await stream.untilEnded();
    expect(stream.events.map((e) => e.event)).toContain('signed-out');
  });

  it.skipIf(dialect !== 'postgres')(
    'a notification written through one instance reaches a tab on another',
    async () => {
      const other = await startSecondInstance(t.db, { clock: t.clock, listen: true });
      try {
        await other.services.inboxFeed.ready();
        const stream = await open(ada.browser, other.base as string);
        expect(stream.status).toBe(200);
        await stream.next((e) => e.event === 'unread');
        const before = unreadEvents(stream)[0] as number;
        const started = Date.now();
        await ext('PUT', `/boards/${board.boardId}/tasks/${board.taskId}/assignees/${ada.id}`);
        await stream.next((e) => e.event === 'unread' && JSON.parse(e.data).unread === before + 1);
        expect(Date.now() - started).toBeLessThan(5000);
        await stream.close();
      } finally {
        await other.close();
      }
    },
  );
});
