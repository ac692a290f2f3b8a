import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import {
  API,
  createTaskFixture,
  expectError,
  insertTask,
  lastTurnAt,
  post,
  type TaskFixture,
  turn,
} from './turn-fixtures.js';

const MiB = 1024 * 1024;

describeEachDialect('turns: capture', (dialect) => {
  let key: string;
  let task: TaskFixture;
  const t = useTestApp(dialect);
  beforeAll(async () => {
    key = (await t.createKey({})).key;
    task = await createTaskFixture(t, key);
  });

  it('stores a batch, normalises capturedAt and reports inserted and watermarks', async () => {
    const { turnsUrl, boardId, laneId } = await createTaskFixture(t, key);
    const res = await post(t, key, turnsUrl, [
      turn(1, { capturedAt: '2026-01-01T12:00:00+02:00', content: '  indented\n' }),
      turn(2, { source: 'copilot', sourceId: 'c-1', capturedAt: '2026-01-01T09:30:00.123456Z' }),
      turn(3, { capturedAt: '2026-01-01T10:00:05.5Z', toolUseOnly: true }),
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      data: { inserted: 3 },
      watermarks: {
        claude: { sourceId: 'msg-3', capturedAt: '2026-01-01T10:00:05.500Z' },
        copilot: { sourceId: 'c-1', capturedAt: '2026-01-01T09:30:00.123Z' },
      },
    });
    expect(boardId).toMatch(/^brd_/);
    expect(laneId).toMatch(/^lane_/);

    const list = await t.request(key, 'GET', turnsUrl);
    expect(list.statusCode).toBe(200);
    const turns = list.json().data;
    expect(turns.map((x: { capturedAt: string }) => x.capturedAt)).toEqual([
      '2026-01-01T09:30:00.123Z',
      '2026-01-01T10:00:00.000Z',
      '2026-01-01T10:00:05.500Z',
    ]);
    expect(turns[1]).toEqual({
      id: expect.stringMatching(/^turn_/),
      source: 'claude',
      sourceId: 'msg-1',
      role: 'assistant',
      content: '  indented\n',
      toolUseOnly: false,
      capturedAt: '2026-01-01T10:00:00.000Z',
    });
    expect(turns[2].toolUseOnly).toBe(true);
  });

  it('ignores duplicates inside a batch and of stored turns, and does not count them', async () => {
    const { turnsUrl, taskId } = await createTaskFixture(t, key);
    const first = await post(t, key, turnsUrl, [
      turn(1),
      turn(2),
      turn(1, { content: 'same id again', capturedAt: '2026-05-05T00:00:00.000Z' }),
      turn(2, { source: 'copilot' }),
    ]);
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toEqual({ inserted: 3 });

    const repeated = await post(t, key, turnsUrl, [turn(1), turn(2), turn(2, { source: 'copilot' })]);
    expect(repeated.statusCode).toBe(201);
    expect(repeated.json().data).toEqual({ inserted: 0 });
    expect(repeated.json().watermarks).toEqual(first.json().watermarks);

    const mixed = await post(t, key, turnsUrl, [turn(2), turn(3)]);
    expect(mixed.json().data).toEqual({ inserted: 1 });

    const list = (await t.request(key, 'GET', turnsUrl)).json().data;
    expect(list).toHaveLength(4);
    // The first of a repeated pair is the one stored; the ignored one did not move lastTurnAt either.
    expect(list.find((x: { sourceId: string }) => x.sourceId === 'msg-1').content).toBe('turn 1');
    expect(await lastTurnAt(t, taskId)).toBe(turn(3).capturedAt);
  });

  it('stores each turn once when two clients send overlapping batches at the same time', async () => {
    const { turnsUrl } = await createTaskFixture(t, key);
    const all = Array.from({ length: 60 }, (_, i) => turn(i));
    const batches = [
      all.slice(0, 40),
      all.slice(20, 60).reverse(),
      all.slice(10, 50),
      [...all.slice(0, 30), ...all.slice(45, 60)],
    ];
    const responses = await Promise.all(batches.map((batch) => post(t, key, turnsUrl, batch)));
    for (const res of responses) expect(res.statusCode).toBe(201);
    const inserted = responses.map((res) => res.json().data.inserted as number);
    expect(inserted.reduce((a, b) => a + b, 0)).toBe(60);

    const list = (await t.request(key, 'GET', `${turnsUrl}?limit=200`)).json().data;
    expect(list).toHaveLength(60);
    expect(new Set(list.map((x: { sourceId: string }) => x.sourceId)).size).toBe(60);
  });

  it('keeps lastTurnAt at the greatest capturedAt, never moving it back', async () => {
    const { turnsUrl, taskId } = await createTaskFixture(t, key);
    expect(await lastTurnAt(t, taskId)).toBeNull();
    await post(t, key, turnsUrl, [turn(5), turn(9), turn(7)]);
    expect(await lastTurnAt(t, taskId)).toBe(turn(9).capturedAt);
    await post(t, key, turnsUrl, [turn(1, { sourceId: 'older' })]);
    expect(await lastTurnAt(t, taskId)).toBe(turn(9).capturedAt);
    await post(t, key, turnsUrl, [turn(30, { source: 'copilot', capturedAt: '2026-01-01T10:00:30+00:00' })]);
    expect(await lastTurnAt(t, taskId)).toBe('2026-01-01T10:00:30.000Z');
  });

  it('shows lastTurnAt in task detail: null without turns, then the latest capture', async () => {
    const { turnsUrl, boardId, taskId } = await createTaskFixture(t, key);
    const detail = async () =>
      (await t.request(key, 'GET', `${API}/boards/${boardId}/tasks/${taskId}`)).json().data.lastTurnAt;
    expect(await detail()).toBeNull();
    await post(t, key, turnsUrl, [turn(4), turn(2)]);
    expect(await detail()).toBe(turn(4).capturedAt);
  });

  it('fires no webhook events', async () => {
    const count = async () =>
      Number(
        (
          await t.db.database.kysely
            .selectFrom('webhook_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect((await post(t, key, task.turnsUrl, [turn(100, { sourceId: 'evt-check' })])).statusCode).toBe(201);
    expect(await count()).toBe(before);
  });

  it.each([
    ['no turns', [], 'turns'],
    ['101 turns', Array.from({ length: 101 }, (_, i) => turn(i)), 'turns'],
    ['an unknown source', [turn(1, { source: 'cursor' })], 'turns[0].source'],
    ['an unknown role', [turn(1), turn(2, { role: 'system' })], 'turns[1].role'],
    ['a capturedAt that is not a timestamp', [turn(1, { capturedAt: 'yesterday' })], 'turns[0].capturedAt'],
    ['a capturedAt without a time zone', [turn(1, { capturedAt: '2026-01-01T10:00:00' })], 'capturedAt'],
    ['an impossible date', [turn(1, { capturedAt: '2026-02-30T10:00:00Z' })], 'turns[0].capturedAt'],
    ['a leap second', [turn(1, { capturedAt: '2026-12-31T23:59:60Z' })], 'turns[0].capturedAt'],
    ['a blank sourceId', [turn(1, { sourceId: '   ' })], 'turns[0].sourceId'],
    ['a sourceId over 200 characters', [turn(1, { sourceId: 'x'.repeat(201) })], 'turns[0].sourceId'],
    ['a missing content', [{ ...turn(1), content: undefined }], 'turns[0].content'],
    ['a non-boolean toolUseOnly', [turn(1, { toolUseOnly: 'yes' as unknown as boolean })], 'toolUseOnly'],
    ['an unknown field', [{ ...turn(1), model: 'x' }], 'turns[0].model'],
    ['turns that are not a list', { a: turn(1) }, 'turns'],
  ])('rejects %s with validation_error naming the field', async (_name, turns, field) => {
    const message = expectError(await post(t, key, task.turnsUrl, turns), 400, 'validation_error');
    expect(message).toContain(field);
  });

  it('accepts a sourceId of 200 characters and trims it', async () => {
    const { turnsUrl } = await createTaskFixture(t, key);
    const res = await post(t, key, turnsUrl, [turn(1, { sourceId: ` ${'s'.repeat(200)} ` })]);
    expect(res.statusCode).toBe(201);
    expect(res.json().watermarks.claude.sourceId).toBe('s'.repeat(200));
  });

  it('accepts batches over 1 MiB, content up to 1 MiB, and rejects more', async () => {
    const { turnsUrl } = await createTaskFixture(t, key);
    const big = 'a'.repeat(MiB);
    const ok = await post(t, key, turnsUrl, [turn(1, { content: big }), turn(2, { content: big })]);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.inserted).toBe(2);

    // 'é' is two bytes of UTF-8: the limit counts bytes.
    const tooBig = await post(t, key, turnsUrl, [turn(3, { content: 'é'.repeat(MiB / 2 + 1) })]);
    expect(expectError(tooBig, 400, 'validation_error')).toContain('turns[0].content');

    const overBodyLimit = await post(
      t,
      key,
      turnsUrl,
      Array.from({ length: 11 }, (_, i) => turn(i + 10, { content: big })),
    );
    expectError(overBodyLimit, 413, 'payload_too_large');
  });

  it('keeps the 1 MiB body limit on other routes', async () => {
    const res = await t.request(key, 'POST', `${API}/boards`, { name: 'x'.repeat(MiB + 10) });
    expectError(res, 413, 'payload_too_large');
  });

  it('checks permission before existence: read key 403, other board 403, missing task 404', async () => {
    const readKey = (await t.createKey({ [task.boardId]: 'read' })).key;
    expectError(await post(t, readKey, task.turnsUrl, [turn(1)]), 403, 'forbidden');
    expect((await t.request(readKey, 'GET', task.turnsUrl)).statusCode).toBe(200);
    expect((await t.request(readKey, 'GET', `${task.turnsUrl}/watermark`)).statusCode).toBe(200);

    const strangerKey = (await t.createKey({})).key;
    for (const url of [task.turnsUrl, `${API}/boards/brd_missing/tasks/${task.taskId}/turns`]) {
      expectError(await post(t, strangerKey, url, [turn(1)]), 403, 'forbidden');
      expectError(await t.request(strangerKey, 'GET', url), 403, 'forbidden');
      expectError(await t.request(strangerKey, 'GET', `${url}/watermark`), 403, 'forbidden');
    }

    const missingTask = `${API}/boards/${task.boardId}/tasks/task_missing/turns`;
    expectError(await post(t, key, missingTask, [turn(1)]), 404, 'not_found');
    expectError(await t.request(key, 'GET', missingTask), 404, 'not_found');
    expectError(await t.request(key, 'GET', `${missingTask}/watermark`), 404, 'not_found');

    const allKey = (await t.createKey('all')).key;
    const missingBoard = `${API}/boards/brd_missing/tasks/${task.taskId}/turns`;
    expect(expectError(await post(t, allKey, missingBoard, [turn(1)]), 404, 'not_found')).toContain('Board');
  });

  it('answers 404 for a task that belongs to another board', async () => {
    const other = await createTaskFixture(t, key);
    const foreignTask = await insertTask(t, other.boardId, other.laneId);
    const url = `${API}/boards/${task.boardId}/tasks/${foreignTask}/turns`;
    expectError(await post(t, key, url, [turn(1)]), 404, 'not_found');
    expectError(await t.request(key, 'GET', url), 404, 'not_found');
    expectError(await t.request(key, 'GET', `${url}/watermark`), 404, 'not_found');
    const stored = await t.request(key, 'GET', `${API}/boards/${other.boardId}/tasks/${foreignTask}/turns`);
    expect(stored.json().data).toEqual([]);
  });

  it('requires authentication', async () => {
    expectError(await post(t, 'ak_nope', task.turnsUrl, [turn(1)]), 401, 'invalid_key');
    const res = await t.app.inject({ method: 'GET', url: task.turnsUrl });
    expectError(res, 401, 'missing_auth');
  });
});
