import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { type BoardFixture, createBoard, createTask, ManualClock, RecordingEvents } from './task-fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDialect('Idempotency-Key on POST', (dialect) => {
  const events = new RecordingEvents();
  const clock = new ManualClock();

  const t = useTestApp(dialect, { events, clock });

  async function post(key: string, url: string, body: unknown, idempotencyKey?: string) {
    return t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
      payload: body as object,
    });
  }

  async function commentsUrl(): Promise<{ fx: BoardFixture; url: string }> {
    const fx = await createBoard(t, ['Todo']);
    const task = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    events.take();
    return { fx, url: `${fx.url}/tasks/${task.id}/comments` };
  }

  async function count(key: string, url: string): Promise<number> {
    return ((await t.request(key, 'GET', url)).json().data as unknown[]).length;
  }

  it('a retry with the same key and body returns the first response and writes nothing more', async () => {
    const { fx, url } = await commentsUrl();
    const body = { body: 'Once only', authorName: 'Bot' };
    const first = await post(fx.key, url, body, 'retry-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    clock.advance(5_000);
    const again = await post(fx.key, url, body, 'retry-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await count(fx.key, url)).toBe(1);
    expect(events.take().map((e) => e.type)).toEqual(['comment.created']);
    // Without a key, the same body is a new comment.
    expect((await post(fx.key, url, body)).statusCode).toBe(201);
    expect(await count(fx.key, url)).toBe(2);
  });

  it('creates tasks once too', async () => {
    const fx = await createBoard(t, ['Todo']);
    const body = { title: 'Only one', laneId: fx.laneIds[0] };
    const a = await post(fx.key, `${fx.url}/tasks`, body, 'task-key');
    const b = await post(fx.key, `${fx.url}/tasks`, body, 'task-key');
    expect(b.json().data.id).toBe(a.json().data.id);
    expect((await t.request(fx.key, 'GET', `${fx.url}/tasks`)).json().data).toHaveLength(1);
  });

  it('the same key with another body or path is 422 idempotency_key_reused', async () => {
    const { fx, url } = await commentsUrl();
    await post(fx.key, url, { body: 'First', authorName: 'Bot' }, 'k');
    const other = await post(fx.key, url, { body: 'Second', authorName: 'Bot' }, 'k');
    expectError(other, 422, 'idempotency_key_reused');
    const otherPath = await post(fx.key, `${fx.url}/lanes`, { name: 'Doing' }, 'k');
    expectError(otherPath, 422, 'idempotency_key_reused');
    expect(await count(fx.key, url)).toBe(1);
  });

  it('keys belong to one API key: another key may use the same value', async () => {
    const { fx, url } = await commentsUrl();
    const { key: other } = await t.createKey('all');
    const body = { body: 'Hello', authorName: 'Bot' };
    expect((await post(fx.key, url, body, 'shared')).statusCode).toBe(201);
    const second = await post(other, url, body, 'shared');
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(fx.key, url)).toBe(2);
  });

  it('a failed request does not keep the key: the corrected retry runs', async () => {
    const { fx, url } = await commentsUrl();
    const missingTask = `${fx.url}/tasks/task_missing/comments`;
    const body = { body: 'Retry me', authorName: 'Bot' };
    expectError(await post(fx.key, missingTask, body, 'fail-then-fix'), 404, 'not_found');
    expectError(
      await post(fx.key, url, { body: '', authorName: 'Bot' }, 'fail-then-fix'),
      400,
      'validation_error',
    );
    expect((await post(fx.key, url, body, 'fail-then-fix')).statusCode).toBe(201);
    expect(await count(fx.key, url)).toBe(1);
  });

  it('a key is kept 24 hours, then the same request runs again', async () => {
    const { fx, url } = await commentsUrl();
    const body = { body: 'Daily', authorName: 'Bot' };
    await post(fx.key, url, body, 'daily');
    clock.advance(DAY_MS - 1_000);
    expect((await post(fx.key, url, body, 'daily')).headers['idempotent-replayed']).toBe('true');
    clock.advance(2_000);
    const later = await post(fx.key, url, body, 'daily');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(fx.key, url)).toBe(2);
  });

  it('a retry while the first request is still being served is 409 conflict', async () => {
    const { fx, url } = await commentsUrl();
    const body = { body: 'Slow', authorName: 'Bot' };
    const actor = await t.services.apiKeys.authenticate(fx.key);
    if (!actor) throw new Error('key not found');
    // The first request has claimed the key and not answered yet.
    const first = await t.services.idempotency.begin(actor, 'busy', await fingerprintOf(url, body));
    expect(first?.kind).toBe('first');
    expectError(await post(fx.key, url, body, 'busy'), 409, 'conflict');
    expect(await count(fx.key, url)).toBe(0);
  });

  it('is not applied to POST /mcp, whose tools pass their own keys to the API', async () => {
    const { fx } = await commentsUrl();
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${fx.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'idempotency-key': 'mcp-outer',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
    expect((await call()).statusCode).toBe(200);
    const again = await call();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('an over-long key is a validation error naming the header; the OpenAPI document shows it', async () => {
    const { fx, url } = await commentsUrl();
    const res = await post(fx.key, url, { body: 'x', authorName: 'Bot' }, 'k'.repeat(256));
    expectError(res, 400, 'validation_error', 'idempotency-key');
    const doc = (await t.app.inject({ method: 'GET', url: '/api/ext/v1/openapi.json' })).json();
    const create = doc.paths['/api/ext/v1/boards/{boardId}/tasks'].post;
    expect(create.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]),
    );
    expect(create.responses['422']).toBeDefined();
  });
});

async function fingerprintOf(url: string, body: unknown): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256')
    .update(`POST ${url}\n${JSON.stringify(body)}`)
    .digest('hex');
}

function expectError(res: LightMyRequestResponse, status: number, code: string, mentions?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(code);
  if (mentions) expect(res.json().error.message).toContain(mentions);
}
