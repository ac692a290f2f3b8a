import { afterEach, beforeAll, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { describeEachDialect } from '../support/dialects.js';
import { machineHasRoom } from '../support/machine-load.js';
import { waitUntil } from '../support/wait.js';
import { OPERATOR } from '../ui/ui-support.js';
import { openEventStream, poll, received } from './activity-stream-client.js';
import { useListeningUiApp } from './live-app.js';
import type { SseClient } from './sse-client.js';

/** What the contract promises for a UI change reaching a stream; measured, bounded generously. */
const PROMISED_MS = 1000;
const BOUND_MS = 5000;

describeEachDialect('activity stream for integrations', (dialect) => {
  const t = useListeningUiApp(dialect);
  let adaActor: Actor;
  const streams: SseClient[] = [];

  beforeAll(() => {
    adaActor = { kind: 'user', origin: 'ui', userId: t.ada.id, name: 'Ada', role: 'member' };
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  const ui = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.ada.browser.request(method, `/api/ui${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : (res.json().data as { id: string });
  };
  async function newBoard(name = 'Stream') {
    const board = (await ui('POST', '/boards', { name })) as { id: string };
    const lane = (await ui('POST', `/boards/${board.id}/lanes`, { name: 'Todo' })) as { id: string };
    return { boardId: board.id, laneId: lane.id };
  }
  async function keyOf(grants: 'all' | Record<string, 'read' | 'edit'>, name = 'Integration') {
    const allBoards = grants === 'all';
    const list = allBoards
      ? []
      : Object.entries(grants).map(([boardId, permission]) => ({ boardId, permission }));
    return t.services.apiKeys.createKey(adaActor, { name, allBoards, grants: list });
  }
  const open = async (
    key: string,
    query: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) => {
    const stream = await openEventStream(t.base, key, query, headers);
    streams.push(stream);
    return stream;
  };

  it('brings a web UI change to an open stream, in the webhook payload shape with the person as actor', async () => {
    const { boardId, laneId } = await newBoard();
    const key = await keyOf('all');
    const stream = await open(key.key);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await t.runtime.changeFeed.ready();
    const task = (await ui('POST', `/boards/${boardId}/tasks`, { title: 'From the board', laneId })) as {
      id: string;
    };
    const answered = Date.now();
    const sse = await stream.next((e) => e.event === 'task.created', 20_000);
    const latencyMs = Date.now() - answered;
    const event = JSON.parse(sse.data);
    expect(sse.id).toBe(event.cursor);
    expect(event).toEqual({
      id: `evt_${event.cursor}`,
      type: 'task.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      actor: { type: 'person', id: t.ada.id, name: 'Ada' },
      origin: 'ui',
      cursor: expect.any(String),
      data: { board_id: boardId, task_id: task.id, title: 'From the board', laneId },
    });
    // Recorded for docs/api.md; bounded for a busy machine, the promise checked where it holds.
    console.info(`[activity stream] UI change → open stream: ${latencyMs} ms (${dialect})`);
    expect(latencyMs).toBeLessThan(BOUND_MS);
    // The promise itself where the machine has room: fewer runnable processes than cores.
    if (machineHasRoom()) expect(latencyMs).toBeLessThan(PROMISED_MS);
    else if (latencyMs >= PROMISED_MS)
      console.warn(`[activity stream] over ${PROMISED_MS} ms on a loaded machine`);
  });

  it('names a key and the person it belongs to, as webhook payloads do', async () => {
    const { boardId, laneId } = await newBoard();
    const key = await keyOf('all', 'Deploy bot');
    const { cursor } = (await poll(t.app, key.key)).body;
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/ext/v1/boards/${boardId}/tasks`,
      headers: { authorization: `Bearer ${key.key}` },
      payload: { title: 'Through the API', laneId },
    });
    expect(created.statusCode).toBe(201);
    const page = await poll(t.app, key.key, { after: cursor, wait: 20 });
    expect(page.status).toBe(200);
    expect(page.body.data.map((e) => [e.type, e.origin, e.actor])).toEqual([
      [
        'task.created',
        'api',
        { type: 'key', id: key.id, name: 'Deploy bot', person: { id: t.ada.id, name: 'Ada' } },
      ],
    ]);
    expect(page.body.cursor).toBe(page.body.data[0]?.cursor);
  });

  it('carries the same type, timestamp, actor and data as the webhook delivery of the change', async () => {
    const { boardId, laneId } = await newBoard();
    const key = await keyOf('all', 'Hooked');
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/ext/v1/webhooks',
      headers: { authorization: `Bearer ${key.key}` },
      payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
    });
    expect(hook.statusCode).toBe(201);
    const { cursor } = (await poll(t.app, key.key)).body;
    const api = (method: 'POST' | 'PUT', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/ext/v1/boards/${boardId}${url}`,
        headers: { authorization: `Bearer ${key.key}` },
        ...(payload ? { payload } : {}),
      });
    const task = (await api('POST', '/tasks', { title: 'Hooked', laneId })).json().data;
    await api('POST', `/tasks/${task.id}/comments`, { body: 'hi @Ada', authorName: 'Bot' });
    await api('PUT', `/tasks/${task.id}/assignees/${t.ada.id}`);
    const streamed = (await poll(t.app, key.key, { after: cursor, wait: 10 })).body.data;
    const delivered = await t.db.database.kysely
      .selectFrom('webhook_events')
      .select('payload')
      .where('board_id', '=', boardId)
      .execute();
    const payloads = delivered.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
    expect(streamed.map(({ type, timestamp, actor, data }) => ({ type, timestamp, actor, data }))).toEqual(
      payloads
        .map(({ type, timestamp, actor, data }) => ({ type, timestamp, actor, data }))
        .sort(
          (a, b) =>
            streamed.findIndex((e) => e.type === a.type) - streamed.findIndex((e) => e.type === b.type),
        ),
    );
    expect(streamed.map((e) => e.type)).toEqual(['task.created', 'comment.created', 'task.assigned']);
  });

  it('starts at the present without a cursor, and a long poll answers when something arrives', async () => {
    const { boardId, laneId } = await newBoard();
    const key = await keyOf('all');
    await ui('POST', `/boards/${boardId}/tasks`, { title: 'Before', laneId });
    const present = await poll(t.app, key.key);
    expect(present.body.data).toEqual([]);
    const waiting0 = t.runtime.changeFeed.subscriptions;
    const waiting = poll(t.app, key.key, { after: present.body.cursor, wait: 30 });
    const started = Date.now();
    // The change is made once the poll waits, so it is the arrival that answers it.
    await waitUntil('the long poll to wait', async () =>
      t.runtime.changeFeed.subscriptions > waiting0 ? true : undefined,
    );
    await ui('POST', `/boards/${boardId}/tasks`, { title: 'After', laneId });
    const page = await waiting;
    console.info(`[activity stream] long poll answered after ${Date.now() - started} ms (${dialect})`);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(page.body.data.map((e) => e.data.title)).toEqual(['After']);
    // Nothing newer: an immediate answer with the cursor given.
    const empty = await poll(t.app, key.key, { after: page.body.cursor });
    expect(empty.body).toEqual({ data: [], cursor: page.body.cursor });
  });

  it('streams the webhook event types only: a board renamed in the web UI is no event', async () => {
    const { boardId, laneId } = await newBoard();
    const key = await keyOf('all');
    const { cursor } = (await poll(t.app, key.key)).body;
    await ui('PATCH', `/boards/${boardId}`, { name: 'Renamed' });
    await ui('POST', `/boards/${boardId}/tasks`, { title: 'Next', laneId });
    const page = await poll(t.app, key.key, { after: cursor, wait: 10 });
    expect(page.body.data.map((e) => e.type)).toEqual(['task.created']);
  });

  it('shows a read grant on board A nothing of board B', async () => {
    const a = await newBoard('A');
    const b = await newBoard('B');
    const key = await keyOf({ [a.boardId]: 'read' });
    const { cursor } = (await poll(t.app, key.key)).body;
    const stream = await open(key.key);
    for (let i = 0; i < 5; i++) {
      await ui('POST', `/boards/${b.boardId}/tasks`, { title: `B${i}`, laneId: b.laneId });
      await ui('POST', `/boards/${a.boardId}/tasks`, { title: `A${i}`, laneId: a.laneId });
    }
    await stream.next((e) => JSON.parse(e.data).data.title === 'A4');
    const seen = received(stream);
    expect(seen.map((e) => e.data.title)).toEqual(['A0', 'A1', 'A2', 'A3', 'A4']);
    expect(seen.every((e) => e.data.board_id === a.boardId)).toBe(true);
    const page = await poll(t.app, key.key, { after: cursor, limit: 1000 });
    expect(page.body.data.map((e) => e.data.title)).toEqual(['A0', 'A1', 'A2', 'A3', 'A4']);
    // Narrowed to the board it reads: the same; to the other: refused, like any board route.
    const narrowed = await poll(t.app, key.key, { after: cursor, boardId: a.boardId });
    expect(narrowed.body.data.map((e) => e.data.title)).toEqual(['A0', 'A1', 'A2', 'A3', 'A4']);
    const refused = await poll(t.app, key.key, { boardId: b.boardId });
    expect([refused.status, refused.body.error?.code]).toEqual([403, 'forbidden']);
    const sseRefused = await open(key.key, { boardId: b.boardId });
    expect([sseRefused.status, JSON.parse(sseRefused.error).error.code]).toEqual([403, 'forbidden']);
  });

  it('tells a grant holder of its board’s deletion (which removes the grant), then ends a stream narrowed to it', async () => {
    const a = await newBoard('Doomed');
    const key = await keyOf({ [a.boardId]: 'read' });
    const { cursor } = (await poll(t.app, key.key)).body;
    const narrowed = await open(key.key, { boardId: a.boardId });
    expect(narrowed.status).toBe(200);
    await ui('POST', `/boards/${a.boardId}/tasks`, { title: 'Last', laneId: a.laneId });
    await ui('DELETE', `/boards/${a.boardId}`);
    await narrowed.untilEnded(20_000);
    expect(received(narrowed).map((e) => e.type)).toEqual(['task.created', 'board.deleted']);
    // Grants are checked with the key as it is now: a poll opened after the deletion holds none.
    const page = await poll(t.app, key.key, { after: cursor });
    expect(page.body.data).toEqual([]);
  });

  it('narrows an all-boards key with ?boardId= (404 for a board that does not exist)', async () => {
    const a = await newBoard('A');
    const b = await newBoard('B');
    const key = await keyOf('all');
    const { cursor } = (await poll(t.app, key.key)).body;
    await ui('POST', `/boards/${b.boardId}/tasks`, { title: 'B', laneId: b.laneId });
    await ui('POST', `/boards/${a.boardId}/tasks`, { title: 'A', laneId: a.laneId });
    const page = await poll(t.app, key.key, { after: cursor, boardId: a.boardId, wait: 10 });
    expect(page.body.data.map((e) => e.data.title)).toEqual(['A']);
    const missing = await poll(t.app, key.key, { boardId: 'brd_missing' });
    expect([missing.status, missing.body.error?.code]).toEqual([404, 'not_found']);
  });

  it('stops waiting for a long poll whose client went away', async () => {
    const key = await keyOf('all');
    const base0 = t.runtime.changeFeed.subscriptions;
    const gone = new AbortController();
    const request = fetch(`${t.base}/api/ext/v1/events?wait=30`, {
      headers: { authorization: `Bearer ${key.key}`, accept: 'application/json' },
      signal: gone.signal,
    }).catch(() => null);
    await waitUntil('the long poll to wait', async () =>
      t.runtime.changeFeed.subscriptions > base0 ? true : undefined,
    );
    gone.abort();
    await request;
    await waitUntil(
      'the wait to stop',
      async () => (t.runtime.changeFeed.subscriptions === base0 ? true : undefined),
      10_000,
    );
  });

  it('ends a revoked key’s stream within 2 seconds', async () => {
    const key = await keyOf('all');
    const stream = await open(key.key);
    expect(stream.status).toBe(200);
    await t.services.apiKeys.revokeApiKey(OPERATOR, key.id);
    const revoked = Date.now();
    await stream.untilEnded(20_000);
    const endedMs = Date.now() - revoked;
    console.info(`[activity stream] revoked key's stream ended after ${endedMs} ms (${dialect})`);
    expect(endedMs).toBeLessThan(BOUND_MS);
    const again = await open(key.key);
    expect(again.status).toBe(401);
  });
});
