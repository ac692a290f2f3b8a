import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKeyWithCli,
  ensureBuilt,
  freePort,
  type Instance,
  runCli,
  sleep,
  startTogether,
} from './support/instances.js';
import { EmptySchema, TEST_DATABASE_URL } from './support/postgres-schema.js';
import { baseEnv, NO_POSTGRES, SECRET, TEST_REDIS_URL } from './support/two-instances.js';

describe.skipIf(NO_POSTGRES)('migrations on PostgreSQL', () => {
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

describe.skipIf(NO_POSTGRES || TEST_REDIS_URL === null)(
  'rate limits shared through Redis by two instances',
  () => {
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
  },
);

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
