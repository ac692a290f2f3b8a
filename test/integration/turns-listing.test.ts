import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { createTaskFixture, expectError, post, type TaskFixture, turn } from './turn-fixtures.js';

interface ListedTurn {
  id: string;
  sourceId: string;
  source: string;
  capturedAt: string;
  content?: string;
}

function expectCaptureOrder(turns: ListedTurn[]): void {
  const times = turns.map((x) => x.capturedAt);
  expect(times).toEqual([...times].sort());
}

describeEachDialect('turns: listing and watermarks', (dialect) => {
  let key: string;
  /** A task holding claude msg-0..msg-59 (10:00:00..10:00:59) and copilot c-0..c-9 (10:00:00..10:01:30). */
  let task: TaskFixture;
  const t = useTestApp(dialect);
  beforeAll(async () => {
    key = (await t.createKey({})).key;
    task = await createTaskFixture(t, key);
    await post(
      t,
      key,
      task.turnsUrl,
      Array.from({ length: 60 }, (_, i) => turn(i)),
    );
    await post(
      t,
      key,
      task.turnsUrl,
      Array.from({ length: 10 }, (_, i) => turn(i * 10, { source: 'copilot', sourceId: `c-${i}` })),
    );
  });

  async function list(url: string) {
    const res = await t.request(key, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: ListedTurn[]; cursor: string | null; watermarks: object };
  }

  /** Follows cursors to the end; `between` runs after each page. */
  async function pageThrough(url: string, between: (page: number) => Promise<void> = async () => {}) {
    const seen: ListedTurn[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const separator = url.includes('?') ? '&' : '?';
      const body = await list(cursor === null ? url : `${url}${separator}cursor=${cursor}`);
      seen.push(...body.data);
      cursor = body.cursor;
      await between(++page);
    } while (cursor !== null && page < 100);
    return seen;
  }

  it('returns 50 turns by default, ordered by capturedAt then id, with a cursor and watermarks', async () => {
    const body = await list(task.turnsUrl);
    expect(body.data).toHaveLength(50);
    expectCaptureOrder(body.data);
    expect(body.cursor).toEqual(expect.any(String));
    expect(body.watermarks).toEqual({
      claude: { sourceId: 'msg-59', capturedAt: turn(59).capturedAt },
      copilot: { sourceId: 'c-9', capturedAt: turn(90).capturedAt },
    });
  });

  it('pages through every turn exactly once and ends with a null cursor', async () => {
    const seen = await pageThrough(`${task.turnsUrl}?limit=7`);
    expect(seen).toHaveLength(70);
    expect(new Set(seen.map((x) => x.id)).size).toBe(70);
    const last = await list(`${task.turnsUrl}?limit=200`);
    expect(last.data).toHaveLength(70);
    expect(last.cursor).toBeNull();
  });

  it('pages through turns that share a capture time (id breaks the tie)', async () => {
    const { turnsUrl } = await createTaskFixture(t, key);
    const sameTime = '2026-03-03T03:03:03.003Z';
    await post(
      t,
      key,
      turnsUrl,
      Array.from({ length: 9 }, (_, i) => turn(i, { capturedAt: sameTime })),
    );
    const seen = await pageThrough(`${turnsUrl}?limit=2`);
    expect(seen.map((x) => x.sourceId).sort()).toEqual(Array.from({ length: 9 }, (_, i) => `msg-${i}`));
    // Ties are broken by id (in the database's collation): the same order as one big page.
    const onePage = await list(turnsUrl);
    expect(seen.map((x) => x.id)).toEqual(onePage.data.map((x) => x.id));
  });

  it('returns every turn once when turns arrive between pages; later ones are included', async () => {
    const { turnsUrl } = await createTaskFixture(t, key);
    await post(
      t,
      key,
      turnsUrl,
      Array.from({ length: 10 }, (_, i) => turn(i * 2)),
    );
    const seen = await pageThrough(`${turnsUrl}?limit=3`, async (page) => {
      // Each page brings a turn captured later than everything, and one inside the pages already read.
      await post(t, key, turnsUrl, [turn(100 + page), turn(page * 2 - 1, { sourceId: `late-${page}` })]);
    });
    const ids = seen.map((x) => x.sourceId);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < 10; i++) expect(ids).toContain(`msg-${i * 2}`);
    expect(ids).toContain('msg-101');
    expectCaptureOrder(seen);
  });

  it('filters by source and by after (strictly later), and keeps the filters across pages', async () => {
    const copilot = await list(`${task.turnsUrl}?source=copilot`);
    expect(copilot.data.map((x) => x.sourceId)).toEqual(Array.from({ length: 10 }, (_, i) => `c-${i}`));
    expect(copilot.cursor).toBeNull();

    const after = turn(50).capturedAt;
    const later = await list(`${task.turnsUrl}?after=${encodeURIComponent(after)}`);
    expect(later.data.every((x) => x.capturedAt > after)).toBe(true);
    const claudeLater = Array.from({ length: 9 }, (_, i) => `msg-${51 + i}`);
    // c-5 was captured exactly at `after`, so it is left out; c-6..c-9 come after msg-59.
    expect(later.data.map((x) => x.sourceId)).toEqual([...claudeLater, 'c-6', 'c-7', 'c-8', 'c-9']);

    const offset = encodeURIComponent('2026-01-01T12:00:50+02:00');
    const paged = await pageThrough(`${task.turnsUrl}?source=claude&after=${offset}&limit=4`);
    expect(paged.map((x) => x.sourceId)).toEqual(claudeLater);
  });

  it('pages newest first with order=newest, each turn once, and refuses its cursor in the other order', async () => {
    const latest = await list(`${task.turnsUrl}?source=claude&order=newest&limit=3`);
    expect(latest.data.map((x) => x.sourceId)).toEqual(['msg-59', 'msg-58', 'msg-57']);
    const seen = await pageThrough(`${task.turnsUrl}?source=claude&order=newest&limit=7`);
    expect(seen.map((x) => x.sourceId)).toEqual(Array.from({ length: 60 }, (_, i) => `msg-${59 - i}`));

    const res = await t.request(key, 'GET', `${task.turnsUrl}?source=claude&cursor=${latest.cursor}`);
    expect(expectError(res, 400, 'validation_error')).toContain('order');
    const bad = await t.request(key, 'GET', `${task.turnsUrl}?order=latest`);
    expect(expectError(bad, 400, 'validation_error')).toContain('order');
  });

  it('rejects a limit outside 1..200 or not an integer', async () => {
    for (const limit of ['0', '201', '-1', '2.5', 'ten']) {
      const res = await t.request(key, 'GET', `${task.turnsUrl}?limit=${limit}`);
      expect(expectError(res, 400, 'validation_error')).toContain('limit');
    }
    expect((await list(`${task.turnsUrl}?limit=1`)).data).toHaveLength(1);
    expect((await list(`${task.turnsUrl}?limit=200`)).data).toHaveLength(70);
  });

  it('rejects bad filters: unknown source, after that is not a timestamp', async () => {
    const source = await t.request(key, 'GET', `${task.turnsUrl}?source=cursor`);
    expect(expectError(source, 400, 'validation_error')).toContain('source');
    const after = await t.request(key, 'GET', `${task.turnsUrl}?after=yesterday`);
    expect(expectError(after, 400, 'validation_error')).toContain('after');
  });

  it('rejects a malformed cursor, or one issued for other filters or another task', async () => {
    const first = await list(`${task.turnsUrl}?limit=5&source=claude`);
    const cursor = first.cursor as string;
    const other = await createTaskFixture(t, key);
    const forged = Buffer.from(JSON.stringify({ v: 1, t: task.taskId })).toString('base64url');
    const cases = [
      `${task.turnsUrl}?cursor=not*base64`,
      `${task.turnsUrl}?cursor=${Buffer.from('not json').toString('base64url')}`,
      `${task.turnsUrl}?cursor=${forged}`,
      `${task.turnsUrl}?cursor=${'a'.repeat(3000)}`,
      `${task.turnsUrl}?cursor=${cursor}`,
      `${task.turnsUrl}?source=copilot&cursor=${cursor}`,
      `${task.turnsUrl}?source=claude&after=2026-01-01T00:00:00Z&cursor=${cursor}`,
      `${other.turnsUrl}?source=claude&cursor=${cursor}`,
    ];
    for (const url of cases) {
      const res = await t.request(key, 'GET', url);
      expect(expectError(res, 400, 'validation_error')).toContain('cursor');
    }
    const next = await list(`${task.turnsUrl}?limit=5&source=claude&cursor=${cursor}`);
    expect(next.data.map((x) => x.sourceId)).toEqual(['msg-5', 'msg-6', 'msg-7', 'msg-8', 'msg-9']);
  });

  it('serves watermarks unwrapped, without content; a task without turns has {}', async () => {
    const res = await t.request(key, 'GET', `${task.turnsUrl}/watermark`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      watermarks: {
        claude: { sourceId: 'msg-59', capturedAt: turn(59).capturedAt },
        copilot: { sourceId: 'c-9', capturedAt: turn(90).capturedAt },
      },
    });

    const empty = await createTaskFixture(t, key);
    expect((await t.request(key, 'GET', `${empty.turnsUrl}/watermark`)).json()).toEqual({ watermarks: {} });
    expect(await list(empty.turnsUrl)).toEqual({ data: [], watermarks: {}, cursor: null });
  });

  it('takes the greatest (capturedAt, sourceId) per source, whatever the insertion order', async () => {
    const { turnsUrl } = await createTaskFixture(t, key);
    const at = '2026-06-01T00:00:00.000Z';
    await post(t, key, turnsUrl, [
      turn(1, { sourceId: 'b', capturedAt: at }),
      turn(2, { sourceId: 'z', capturedAt: '2026-05-31T23:59:59.999Z' }),
      turn(3, { sourceId: 'B', capturedAt: at }),
    ]);
    await post(t, key, turnsUrl, [turn(4, { sourceId: 'a', capturedAt: at })]);
    const body = (await t.request(key, 'GET', `${turnsUrl}/watermark`)).json();
    // Source ids compare byte-wise: 'b' > 'a' > 'B'.
    expect(body.watermarks).toEqual({ claude: { sourceId: 'b', capturedAt: at } });
    // A later turn wins over any sourceId.
    const posted = await post(t, key, turnsUrl, [
      turn(5, { sourceId: 'A', capturedAt: '2026-06-01T00:00:00.001Z' }),
    ]);
    expect(posted.json().watermarks).toEqual({
      claude: { sourceId: 'A', capturedAt: '2026-06-01T00:00:00.001Z' },
    });
  });
});
