import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { startSecondInstance } from '../support/second-instance.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { type Browser, buildUiTestApp, expectErrorCode, OPERATOR, type UiTestApp } from '../ui/ui-support.js';
import { SseClient } from './sse-client.js';

const API = '/api/ext/v1';
const HEARTBEAT_MS = 100;

describeEachDialect('live board in the UI API', (dialect) => {
  let t: UiTestApp;
  let base: string;
  let key: string;
  let keyId: string;
  let ada: { id: string; browser: Browser };
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await buildUiTestApp(dialect, {
      liveStreams: { heartbeatMs: HEARTBEAT_MS, maxStreamsPerSession: 3 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const created = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'Bot',
      allBoards: true,
      grants: [],
    });
    key = created.key;
    keyId = created.id;
    ada = await t.person('member', 'Ada');
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `${API}${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : (res.json().data as { id: string });
  };
  const ui = async (b: Browser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await b.request(method, `/api/ui${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : res.json();
  };
  const openStream = async (b: Browser, path: string, headers: Record<string, string> = {}) => {
    const stream = await SseClient.open(`${base}/api/ui${path}`, {
      ...(b.cookie ? { cookie: `lb_session=${b.cookie}` } : {}),
      ...headers,
    });
    streams.push(stream);
    return stream;
  };
  async function newBoard(b: Browser = ada.browser) {
    const board = (await ui(b, 'POST', '/boards', { name: 'Live' })).data as { id: string };
    const lane = (await ui(b, 'POST', `/boards/${board.id}/lanes`, { name: 'Todo' })).data as { id: string };
    return { boardId: board.id, laneId: lane.id };
  }

  it('serves the board view with its activity id, and renames the board', async () => {
    const { boardId, laneId } = await newBoard();
    await ui(ada.browser, 'POST', `/boards/${boardId}/tasks`, { title: 'One', laneId });
    const renamed = await ui(ada.browser, 'PATCH', `/boards/${boardId}`, { name: 'Renamed' });
    expect(renamed.data).toMatchObject({ id: boardId, name: 'Renamed' });
    const view = (await ui(ada.browser, 'GET', `/boards/${boardId}/view`)).data;
    expect(view.board.name).toBe('Renamed');
    expect(view.lanes).toEqual([{ id: laneId, name: 'Todo', position: 0, taskCount: 1 }]);
    expect(view.tasks[0]).toMatchObject({ title: 'One', position: 0, archived: false });
    const activities = await ui(ada.browser, 'GET', `/boards/${boardId}/activities?limit=2`);
    expect(activities.data.map((a: { type: string }) => a.type)).toEqual(['board.updated', 'task.created']);
    expect(activities.data[0]).toMatchObject({ id: view.activityId, actor: { kind: 'user', name: 'Ada' } });
    expect(activities.nextBefore).toBe(activities.data[1].id);
    const taskId = view.tasks[0].id;
    const taskHistory = await ui(ada.browser, 'GET', `/boards/${boardId}/tasks/${taskId}/activities`);
    expect(taskHistory.data.map((a: { type: string }) => a.type)).toEqual(['task.created']);

    expectErrorCode(
      await t.browser().request('GET', `/api/ui/boards/${boardId}/view`),
      401,
      'unauthenticated',
    );
    expectErrorCode(await ada.browser.request('GET', '/api/ui/boards/brd_nope/view'), 404, 'not_found');
    const blank = await ada.browser.request('PATCH', `/api/ui/boards/${boardId}`, { name: '  ' });
    expectErrorCode(blank, 400, 'validation_error');
  });

  it('streams a change made through the external API as it commits', async () => {
    const { boardId, laneId } = await newBoard();
    const view = (await ui(ada.browser, 'GET', `/boards/${boardId}/view`)).data;
    const stream = await openStream(ada.browser, `/boards/${boardId}/events?after=${view.activityId}`);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    const started = Date.now();
    const task = await api('POST', `/boards/${boardId}/tasks`, { title: 'From CI', laneId });
    const event = await stream.next((e) => e.event === 'task.created');
    // Pushed at commit, not found by a later poll; the bound allows for a busy test machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Number(event.id)).toBeGreaterThan(view.activityId);
    expect(JSON.parse(event.data)).toMatchObject({
      type: 'task.created',
      actor: { kind: 'api_key', name: 'Bot' },
      card: { id: task?.id, title: 'From CI', laneId },
    });
    await stream.next(() => stream.comments > 0);
  });

  it('resumes from Last-Event-ID without losing anything', async () => {
    const { boardId, laneId } = await newBoard();
    const view = (await ui(ada.browser, 'GET', `/boards/${boardId}/view`)).data;
    const first = await openStream(ada.browser, `/boards/${boardId}/events?after=${view.activityId}`);
    await api('POST', `/boards/${boardId}/tasks`, { title: 'A', laneId });
    await first.next((e) => e.event === 'task.created');
    await first.close();
    const lastId = first.lastId() as string;
    await api('POST', `/boards/${boardId}/tasks`, { title: 'B', laneId });
    await ui(ada.browser, 'POST', `/boards/${boardId}/lanes`, { name: 'Done' });
    // An EventSource reconnects to the same URL with Last-Event-ID, which wins over ?after=.
    const again = await openStream(ada.browser, `/boards/${boardId}/events?after=${view.activityId}`, {
      'last-event-id': lastId,
    });
    await again.next((e) => e.event === 'lane.created');
    const resumed = again.events.filter((e) => Number(e.id) > Number(lastId)).map((e) => e.event);
    expect(resumed).toEqual(['task.created', 'lane.created']);

    const gap = await openStream(ada.browser, `/boards/${boardId}/events`, { 'last-event-id': '99999999' });
    const reset = await gap.next((e) => e.event === 'reset');
    expect(JSON.parse(reset.data)).toEqual({ activityId: Number(reset.id) });
    const bad = await openStream(ada.browser, `/boards/${boardId}/events`, { 'last-event-id': 'abc' });
    expect(bad.status).toBe(400);
  });

  it('refuses without a session, limits streams per session, ends on sign-out', async () => {
    const { boardId } = await newBoard();
    const anonymous = await openStream(t.browser(), `/boards/${boardId}/events`);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.error).error.code).toBe('unauthenticated');
    expect((await openStream(ada.browser, '/boards/brd_nope/events')).status).toBe(404);

    const bob = await t.person('member', 'Bob');
    const tabs = [];
    for (let i = 0; i < 3; i++) tabs.push(await openStream(bob.browser, `/boards/${boardId}/events`));
    expect(tabs.map((tab) => tab.status)).toEqual([200, 200, 200]);
    const fourth = await openStream(bob.browser, `/boards/${boardId}/events`);
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.error).error.code).toBe('rate_limited');
    await tabs[0]?.close();
    await expect
      .poll(async () => (await openStream(bob.browser, `/boards/${boardId}/events`)).status)
      .toBe(200);

    const cookie = bob.browser.cookie;
    await ui(bob.browser, 'DELETE', '/session');
    for (const tab of tabs.slice(1)) {
      await tab.untilEnded(HEARTBEAT_MS * 20);
      expect(tab.events.at(-1)?.event).toBe('signed-out');
    }
    const after = await SseClient.open(`${base}/api/ui/boards/${boardId}/events`, {
      cookie: `lb_session=${cookie}`,
    });
    expect(after.status).toBe(401);
  });

  it('ends the stream when the board is deleted', async () => {
    const { boardId } = await newBoard();
    const stream = await openStream(ada.browser, `/boards/${boardId}/events`);
    await ui(ada.browser, 'DELETE', `/boards/${boardId}`);
    await stream.untilEnded();
    expect(stream.events.map((e) => e.event)).toEqual(['board.deleted']);
  });

  it.skipIf(dialect !== 'postgres')('a change through one instance reaches a stream on another', async () => {
    const other = await startSecondInstance(t.db, { clock: t.clock, listen: true });
    try {
      const { boardId, laneId } = await newBoard();
      const view = (await ui(ada.browser, 'GET', `/boards/${boardId}/view`)).data;
      // Sessions live in the database: the same cookie works on the other instance.
      const stream = await SseClient.open(
        `${other.base}/api/ui/boards/${boardId}/events?after=${view.activityId}`,
        { cookie: `lb_session=${ada.browser.cookie}` },
      );
      streams.push(stream);
      expect(stream.status).toBe(200);
      const started = Date.now();
      await api('POST', `/boards/${boardId}/tasks`, { title: 'Through A', laneId });
      const event = await stream.next((e) => e.event === 'task.created');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(JSON.parse(event.data)).toMatchObject({ card: { title: 'Through A' } });
      await stream.close();
    } finally {
      await other.close();
    }
  });

  it('UI changes record activities as the person and fire no webhooks', async () => {
    const receiver = await WebhookReceiver.start();
    t.runtime.startBackground();
    try {
      const { boardId, laneId } = await newBoard();
      await t.services.webhooks.createWebhook(OPERATOR, {
        url: receiver.url(),
        events: ['*'],
        apiKeyId: keyId,
      });
      const b = `/boards/${boardId}`;
      await ui(ada.browser, 'PATCH', b, { name: 'Quiet' });
      const task = (await ui(ada.browser, 'POST', `${b}/tasks`, { title: 'Quiet task', laneId })).data;
      const done = (await ui(ada.browser, 'POST', `${b}/lanes`, { name: 'Done' })).data;
      await ui(ada.browser, 'PATCH', `${b}/lanes/${done.id}`, { position: 0 });
      await ui(ada.browser, 'POST', `${b}/tasks/${task.id}/move`, { laneId: done.id });
      // A marker through the external API: once it is delivered, earlier UI changes would have been.
      await api('PATCH', `${b}/tasks/${task.id}`, { priority: 1 });
      const [marker] = await receiver.waitFor(1);
      expect(JSON.parse(marker?.body ?? '{}').type).toBe('task.updated');
      expect(receiver.requests).toHaveLength(1);
      const history = await ui(ada.browser, 'GET', `${b}/activities`);
      const mine = history.data.filter((a: { origin: string }) => a.origin === 'ui');
      expect(mine.map((a: { type: string }) => a.type)).toEqual([
        'task.moved',
        'lane.updated',
        'lane.created',
        'task.created',
        'board.updated',
        'lane.created',
        'board.created',
      ]);
      expect(mine.every((a: { actor: { name: string } }) => a.actor.name === 'Ada')).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
