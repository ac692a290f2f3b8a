import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptRecorder, overlappingAttempts } from './support/attempt-recorder.js';
import {
  createKeyWithCli,
  ensureBuilt,
  freePort,
  type Instance,
  runCli,
  sleep,
  startTogether,
  waitUntil,
} from './support/instances.js';
import { EmptySchema, TEST_DATABASE_URL } from './support/postgres-schema.js';

/*
 * Two real server processes (`node dist/main.js`) on one PostgreSQL schema, as a team deployment runs
 * them behind a load balancer. PostgreSQL only: SQLite is one process by design.
 */

const SECRET = 'e2e-master-key-0123456789abcdef0123456789abcdef';
const POOL_SIZE = 4;
const WEBHOOK_TIMEOUT_MS = 2000;
// The dispatcher leases a claimed delivery for twice the time-out plus 2 s.
const LEASE_MS = 2 * WEBHOOK_TIMEOUT_MS + 2000;

const skip = TEST_DATABASE_URL === null;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? null;

function baseEnv(dataDir: string): Record<string, string> {
  return {
    LANEBOARD_SECRET_KEY: SECRET,
    LANEBOARD_DATA_DIR: dataDir,
    LANEBOARD_DB_POOL_SIZE: String(POOL_SIZE),
    LANEBOARD_RATE_LIMIT_MAX: '1000000',
    LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
    LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
    LANEBOARD_WEBHOOK_RETRY_DELAYS: '200ms,200ms,200ms,200ms',
    LANEBOARD_WEBHOOK_TIMEOUT: `${WEBHOOK_TIMEOUT_MS}ms`,
  };
}

/** A small deterministic generator, so a failing interleaving of moves can be reproduced. */
function seededRandom(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
}

describe.skipIf(skip)('two instances on one PostgreSQL database', () => {
  let schema: EmptySchema;
  let dataDir: string;
  let receiver: AttemptRecorder;
  let a: Instance;
  let b: Instance;
  let key: string;
  const appNames = { a: '', b: '' };

  beforeAll(async () => {
    ensureBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-e2e-'));
    receiver = await AttemptRecorder.start();
    schema = await EmptySchema.create();
    appNames.a = `${schema.name}_a`;
    appNames.b = `${schema.name}_b`;
    const env = baseEnv(dataDir);
    // Both start at the same moment on an EMPTY schema: they race to apply the migrations.
    const started = await startTogether([
      {
        name: 'instance A',
        env: {
          ...env,
          PORT: String(await freePort()),
          DATABASE_URL: schema.url({ application_name: appNames.a }),
        },
      },
      {
        name: 'instance B',
        env: {
          ...env,
          PORT: String(await freePort()),
          DATABASE_URL: schema.url({ application_name: appNames.b }),
        },
      },
    ]);
    [a, b] = [started[0]!, started[1]!];
    key = createKeyWithCli({ ...env, DATABASE_URL: schema.url() });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.signal('SIGKILL'), b?.signal('SIGKILL')]);
    await receiver?.close();
    await schema?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

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

  it('delivers every event when an instance is killed mid-delivery, never attempting a delivery twice at once', async () => {
    const hook = await a.api(key, 'POST', '/webhooks', { url: receiver.url, events: ['*'] });
    expect(hook.status).toBe(201);
    receiver.delayMs = 600;

    // Events through both instances: two boards, then 40 lanes created concurrently.
    const boards = [
      (await a.api(key, 'POST', '/boards', { name: 'Hooks A' })).body.data.id as string,
      (await b.api(key, 'POST', '/boards', { name: 'Hooks B' })).body.data.id as string,
    ];
    const lanes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        [a, b][i % 2]!.api(key, 'POST', `/boards/${boards[i % 2]}/lanes`, { name: `Lane ${i}` }),
      ),
    );
    expect(lanes.map((l) => l.status)).toEqual(Array(40).fill(201));
    const eventCount = 42;

    // Both dispatchers have attempts in flight, which the receiver then holds open (answers none) while A
    // is frozen, its leases read, and killed: a slow receiver alone answered A's last attempts during the
    // freeze when the machine was busy, and nothing was left to cut off.
    const leaseOwnerInstance = (owner: string) => owner.split(':')[0]!;
    await waitUntil('both instances to have attempts in flight', async () => {
      receiver.hold();
      const rows = await schema.query<{ id: string; lease_owner: string }>(
        'select id, lease_owner from webhook_deliveries where lease_owner is not null',
      );
      const open = new Set(receiver.open.map((x) => x.deliveryId));
      const sending = new Set(
        rows.filter((r) => open.has(r.id)).map((r) => leaseOwnerInstance(r.lease_owner)),
      );
      if (sending.size >= 2) return true;
      receiver.release();
      return undefined;
    });
    await a.signal('SIGSTOP');
    await sleep(150);
    const leasesAtKill = await schema.query<{ id: string; lease_owner: string; lease_until: number }>(
      'select id, lease_owner, lease_until from webhook_deliveries where lease_owner is not null',
    );
    await a.signal('SIGKILL');
    receiver.delayMs = 0;
    receiver.release();

    const outcome = await waitUntil(
      'every delivery to be delivered',
      async () => {
        const rows = await schema.query<{ status: string; n: number }>(
          'select status, count(*)::int as n from webhook_deliveries group by status',
        );
        const counts: Record<string, number> = Object.fromEntries(rows.map((r) => [r.status, r.n]));
        // A failed delivery ends the wait at once: the assertion below then shows it.
        return counts.pending && !counts.failed ? undefined : counts;
      },
      LEASE_MS + 20_000,
    );
    expect(outcome).toEqual({ delivered: eventCount });

    const attempts = receiver.attempts;
    // Every event arrived at least once.
    const events = await schema.query<{ id: string }>('select id from webhook_events');
    expect(events).toHaveLength(eventCount);
    const arrived = new Set(attempts.filter((x) => x.answered).map((x) => x.eventId));
    expect([...arrived].sort()).toEqual(events.map((e) => e.id).sort());

    // No delivery was ever in the hands of two senders at once.
    expect(overlappingAttempts(attempts)).toEqual([]);

    // The attempts A had in flight were cut off by the kill; they identify A's leases.
    const cutOff = attempts.filter((x) => !x.answered);
    expect(cutOff.length).toBeGreaterThan(0);
    const leaseById = new Map(leasesAtKill.map((l) => [l.id, l]));
    const killed = new Set(
      cutOff.map((x) => leaseOwnerInstance(leaseById.get(x.deliveryId)?.lease_owner ?? '?')),
    );
    expect(killed.size).toBe(1);
    const [killedInstance] = [...killed];
    const orphans = leasesAtKill.filter((l) => leaseOwnerInstance(l.lease_owner) === killedInstance);
    // The survivor took each of them over only once its lease had run out, and delivered it.
    for (const orphan of orphans) {
      const retried = attempts.filter((x) => x.deliveryId === orphan.id && x.startedAt >= orphan.lease_until);
      expect(
        retried.some((x) => x.answered),
        `delivery ${orphan.id} retried after its lease`,
      ).toBe(true);
    }
    expect(b.running).toBe(true);
  }, 60_000);
});

describe.skipIf(skip)('migrations on PostgreSQL', () => {
  let schema: EmptySchema;

  beforeAll(async () => {
    ensureBuilt();
    schema = await EmptySchema.create();
  }, 180_000);
  afterAll(async () => {
    await schema?.drop();
  });

  it('`laneboard migrate` applies pending migrations once and then reports the database up to date', () => {
    const env = { DATABASE_URL: schema.url(), LANEBOARD_SECRET_KEY: SECRET };
    const first = runCli(['migrate'], env);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Applied: 001-initial(, [\w-]+)*\n$/);
    const second = runCli(['migrate'], env);
    expect(second).toMatchObject({ status: 0, stdout: 'Database is up to date.\n' });
  });

  it('`laneboard migrate` fails with exit code 1 and a one-line message when the database does not answer', () => {
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.port = '1';
    const result = runCli(['migrate'], { DATABASE_URL: url.toString(), LANEBOARD_SECRET_KEY: SECRET });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^laneboard: .+\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe.skipIf(skip || TEST_REDIS_URL === null)('rate limits shared through Redis by two instances', () => {
  let schema: EmptySchema;
  let dataDir: string;
  let instances: Instance[] = [];
  let key: string;
  const max = 6;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-e2e-redis-'));
    schema = await EmptySchema.create();
    const env = {
      ...baseEnv(dataDir),
      DATABASE_URL: schema.url(),
      REDIS_URL: TEST_REDIS_URL ?? '',
      LANEBOARD_RATE_LIMIT_MAX: String(max),
      LANEBOARD_RATE_LIMIT_WINDOW: '1m',
    };
    instances = await startTogether([
      { name: 'instance A', env: { ...env, PORT: String(await freePort()) } },
      { name: 'instance B', env: { ...env, PORT: String(await freePort()) } },
    ]);
    key = createKeyWithCli(env);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.signal('SIGKILL')));
    await schema?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts requests alternating between the instances against one budget per key', async () => {
    const responses = [];
    for (let i = 0; i < max + 2; i++) responses.push(await instances[i % 2]!.api(key, 'GET', '/boards'));
    expect(responses.map((r) => r.status)).toEqual([...Array(max).fill(200), 429, 429]);
    expect(responses.slice(0, max).map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(
      Array.from({ length: max }, (_, i) => String(max - 1 - i)),
    );
    const limited = responses[max]!;
    expect(limited.body.error).toEqual({
      code: 'rate_limited',
      message: 'Rate limit exceeded. Try again later.',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('an instance whose Redis does not answer', () => {
  let dataDir: string;
  let instance: Instance | undefined;

  beforeAll(() => {
    ensureBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-e2e-noredis-'));
  }, 180_000);
  afterAll(async () => {
    await instance?.signal('SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves every request at once, without the limit, and prints no stack traces', async () => {
    // Nothing listens on port 1. SQLite is enough: the counters are the only thing Redis holds.
    const env = {
      LANEBOARD_DATA_DIR: dataDir,
      REDIS_URL: 'redis://127.0.0.1:1',
      LANEBOARD_RATE_LIMIT_MAX: '2',
    };
    // Only migrate and serve migrate: the key is created on a migrated database, as a user would.
    expect(runCli(['migrate'], env).status).toBe(0);
    const key = createKeyWithCli(env);
    [instance] = await startTogether([
      { name: 'instance without Redis', env: { ...env, PORT: String(await freePort()) } },
    ]);
    const timings: number[] = [];
    for (let i = 0; i < 6; i++) {
      const started = Date.now();
      expect((await instance!.api(key, 'GET', '/boards')).status).toBe(200);
      timings.push(Date.now() - started);
      await sleep(200);
    }
    // ioredis's offline queue would hold each request through its reconnection back-off (seconds).
    expect(Math.max(...timings)).toBeLessThan(500);
    expect(instance!.stderr).not.toContain('Unhandled error event');
    // Two CLI runs and a server start before the requests: on a loaded machine more than the default 20 s.
  }, 60_000);
});
