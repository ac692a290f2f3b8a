import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Instance, runCli, startTogether } from './support/instances.js';
import type { EmptySchema } from './support/postgres-schema.js';
import {
  baseEnv,
  NO_POSTGRES,
  POOL_SIZE,
  SECRET,
  startTwoInstances,
  stopTwoInstances,
  type TwoInstances,
} from './support/two-instances.js';

/** A small deterministic generator, so a failing interleaving of moves can be reproduced. */
function seededRandom(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
}

describe.skipIf(NO_POSTGRES)('two instances on one PostgreSQL database', () => {
  let pair: Partial<TwoInstances> = {};
  let schema: EmptySchema;
  let dataDir: string;
  let a: Instance;
  let b: Instance;
  let key: string;
  let appNames: TwoInstances['appNames'];

  beforeAll(async () => {
    pair = await startTwoInstances();
    ({ schema, dataDir, a, b, key, appNames } = pair as TwoInstances);
  }, 180_000);
  afterAll(() => stopTwoInstances(pair));

  it('both come up when started together on an empty schema, and the migrations are applied once', async () => {
    expect([await a.health(), await b.health()]).toEqual([200, 200]);
    const applied = await schema.query<{ name: string }>(
      'select name from laneboard_migrations order by name',
    );
    // A migration run twice would have failed one instance's start; none is left to apply.
    expect(applied.map((m) => m.name)[0]).toBe('001-initial');
    const again = runCli(['migrate'], { DATABASE_URL: schema.url(), LANEBOARD_SECRET_KEY: SECRET });
    expect(again).toMatchObject({ status: 0, stdout: 'Database is up to date.\n' });
  });

  it('serve the API consistently: what one instance writes the other reads at once', async () => {
    const board = await a.api(key, 'POST', '/boards', { name: 'Shared' });
    expect(board.status).toBe(201);
    const boardId = board.body.data.id as string;
    const fromB = await b.api(key, 'GET', `/boards/${boardId}`);
    expect(fromB.status).toBe(200);
    expect(fromB.body.data.name).toBe('Shared');
    expect((await b.api(key, 'GET', '/boards')).body.data.map((x: { id: string }) => x.id)).toContain(
      boardId,
    );

    const lane = await b.api(key, 'POST', `/boards/${boardId}/lanes`, { name: 'Doing' });
    expect(lane.status).toBe(201);
    const lanesFromA = await a.api(key, 'GET', `/boards/${boardId}/lanes`);
    expect(lanesFromA.body.data.map((l: { id: string }) => l.id)).toEqual([lane.body.data.id]);

    expect((await b.api(key, 'DELETE', `/boards/${boardId}`)).status).toBe(204);
    const gone = await a.api(key, 'GET', `/boards/${boardId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
  });

  it('concurrent task moves through both instances keep every lane dense (0..n-1)', async () => {
    const instances = [a, b];
    const boardId = (await a.api(key, 'POST', '/boards', { name: 'Moves' })).body.data.id as string;
    const laneIds: string[] = [];
    for (const name of ['Todo', 'Doing', 'Done']) {
      laneIds.push((await b.api(key, 'POST', `/boards/${boardId}/lanes`, { name })).body.data.id);
    }
    // Concurrent appends to one lane through both instances.
    const created = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        instances[i % 2]!.api(key, 'POST', `/boards/${boardId}/tasks`, {
          title: `T${i}`,
          laneId: laneIds[0],
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(16).fill(201));
    const taskIds = created.map((r) => r.body.data.id as string);
    // Appends take no lane lock (decisions.md, "Task ranks"): each reports the tasks its transaction saw
    // before it, so racing ones may report the same position; once all have committed the lane is
    // 0..n-1, and no task is listed before the position it reported.
    const appended = (await b.api(key, 'GET', `/boards/${boardId}/tasks?laneId=${laneIds[0]}`)).body
      .data as Array<{ id: string; position: number }>;
    expect(appended.map((t) => t.position)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    for (const res of created) {
      const listed = appended.find((t) => t.id === res.body.data.id);
      expect(res.body.data.position).toBeLessThanOrEqual(listed?.position ?? -1);
    }

    const random = seededRandom(20261122);
    const moves = await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const body: { laneId: string; position?: number } = { laneId: laneIds[random(3)]! };
        if (random(4) > 0) body.position = random(18);
        const url = `/boards/${boardId}/tasks/${taskIds[random(16)]}/move`;
        // 409 conflict asks the client to retry: several movers of one task can exhaust the server's retries.
        for (let attempt = 1; ; attempt++) {
          const moved = await instances[(i + attempt) % 2]!.api(key, 'POST', url, body);
          if (moved.status !== 409 || attempt === 10) return moved;
        }
      }),
    );
    expect(moves.filter((m) => m.status !== 200).map((m) => m.body)).toEqual([]);

    const listA = await a.api(key, 'GET', `/boards/${boardId}/tasks`);
    const listB = await b.api(key, 'GET', `/boards/${boardId}/tasks`);
    expect(listB.body.data).toEqual(listA.body.data);
    const tasks = listA.body.data as Array<{ id: string; laneId: string; position: number }>;
    expect(tasks.map((t) => t.id).sort()).toEqual([...taskIds].sort());
    for (const laneId of laneIds) {
      const positions = tasks.filter((t) => t.laneId === laneId).map((t) => t.position);
      expect(positions, `positions in lane ${laneId}`).toEqual(positions.map((_, i) => i));
    }
  });

  it('opens LANEBOARD_DB_POOL_SIZE connections for queries per instance, plus two for LISTEN (delivery wake-ups, key changes)', async () => {
    // The moves above kept both pools busy; idle connections stay open for 10 s, so the pools are full.
    const connections = await schema.query<{ application_name: string; listening: boolean; n: number }>(
      `select application_name, query ilike 'LISTEN %' as listening, count(*)::int as n
         from pg_stat_activity where application_name = any($1)
        group by 1, 2 order by 1, 2`,
      [[appNames.a, appNames.b]],
    );
    expect(connections).toEqual([
      { application_name: appNames.a, listening: false, n: POOL_SIZE },
      { application_name: appNames.a, listening: true, n: 2 },
      { application_name: appNames.b, listening: false, n: POOL_SIZE },
      { application_name: appNames.b, listening: true, n: 2 },
    ]);
  });

  it('serves requests and wakes its dispatcher with a pool of one connection', async () => {
    const [single] = await startTogether([
      {
        name: 'instance with LANEBOARD_DB_POOL_SIZE=1',
        env: {
          ...baseEnv(dataDir),
          LANEBOARD_DB_POOL_SIZE: '1',
          PORT: String(await freePort()),
          DATABASE_URL: schema.url(),
        },
      },
    ]);
    try {
      const board = await single!.api(key, 'POST', '/boards', { name: 'Small pool' });
      expect(board.status).toBe(201);
      const lanes = await Promise.all(
        ['One', 'Two', 'Three'].map((name) =>
          single!.api(key, 'POST', `/boards/${board.body.data.id}/lanes`, { name }),
        ),
      );
      expect(lanes.map((l) => l.status)).toEqual([201, 201, 201]);
    } finally {
      await single!.signal('SIGTERM');
    }
  });

  it('identical turn batches sent concurrently through both instances store each turn once', async () => {
    const boardId = (await b.api(key, 'POST', '/boards', { name: 'Turns' })).body.data.id as string;
    const laneId = (await a.api(key, 'POST', `/boards/${boardId}/lanes`, { name: 'Doing' })).body.data.id;
    const task = await b.api(key, 'POST', `/boards/${boardId}/tasks`, { title: 'Agent work', laneId });
    const url = `/boards/${boardId}/tasks/${task.body.data.id}/turns`;
    const turn = (source: string, n: number) => ({
      source,
      sourceId: `msg-${n}`,
      role: n % 2 ? 'assistant' : 'user',
      content: `turn ${n}`,
      capturedAt: new Date(Date.UTC(2026, 10, 22, 10, 0, n)).toISOString(),
    });
    const batch = (from: number, to: number) => ({
      turns: Array.from({ length: to - from }, (_, i) =>
        turn((from + i) % 3 ? 'claude' : 'copilot', from + i),
      ),
    });
    // 60 distinct turns in overlapping batches, each batch sent through both instances at once.
    const batches = [batch(0, 40), batch(20, 60), batch(0, 60), batch(30, 50)];
    const sent = await Promise.all(
      batches.flatMap((body) => [a.api(key, 'POST', url, body), b.api(key, 'POST', url, body)]),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(sent.length).fill(201));
    expect(sent.reduce((sum, r) => sum + (r.body.data.inserted as number), 0)).toBe(60);

    const stored = await a.api(key, 'GET', `${url}?limit=200`);
    const ids = (stored.body.data as Array<{ source: string; sourceId: string }>).map(
      (t) => `${t.source}/${t.sourceId}`,
    );
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });
});
