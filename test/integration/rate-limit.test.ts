import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { testRuntime } from '../support/runtime.js';
import { buildTestApp } from '../support/test-app.js';

const MAX = 5;
const WINDOW_MS = 60_000;
const BOARDS = '/api/ext/v1/boards';

function limitHeaders(res: LightMyRequestResponse) {
  return {
    limit: res.headers['x-ratelimit-limit'],
    remaining: res.headers['x-ratelimit-remaining'],
    reset: res.headers['x-ratelimit-reset'],
  };
}

/** Seconds until the window resets: a whole number from 1 to the window's length. */
function expectResetSeconds(value: unknown): void {
  expect(String(value)).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(WINDOW_MS / 1000);
}

describeEachDialect('rate limiting', (dialect) => {
  const t = useTestApp(dialect, { rateLimit: { max: MAX, windowMs: WINDOW_MS } });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Requests from their own client address, so tests do not share the per-address budget. */
  let nextAddress = 1;
  const newAddress = () => `10.1.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  const inject = (remoteAddress: string, url: string, key?: string, method: 'GET' | 'POST' = 'GET') =>
    t.app.inject({
      method,
      url,
      remoteAddress,
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });

  it('counts down a key budget in X-RateLimit-* headers, then answers 429 with Retry-After', async () => {
    const { key } = await t.createKey('all');
    const address = newAddress();
    for (let i = 1; i <= MAX; i++) {
      const res = await inject(address, BOARDS, key);
      expect(res.statusCode).toBe(200);
      expect(limitHeaders(res)).toMatchObject({ limit: String(MAX), remaining: String(MAX - i) });
      expectResetSeconds(res.headers['x-ratelimit-reset']);
      expect(res.headers['retry-after']).toBeUndefined();
    }
    const limited = await inject(address, BOARDS, key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: { code: 'rate_limited', message: 'Rate limit exceeded. Try again later.' },
    });
    expect(limitHeaders(limited)).toMatchObject({ limit: String(MAX), remaining: '0' });
    expectResetSeconds(limited.headers['x-ratelimit-reset']);
    expectResetSeconds(limited.headers['retry-after']);
    // Every route of the API shares the key's budget.
    expect((await inject(address, `${BOARDS}/brd_x/lanes`, key)).statusCode).toBe(429);
  });

  it('gives every key its own budget, separate from its client address', async () => {
    const first = await t.createKey('all');
    const second = await t.createKey('all');
    const address = newAddress();
    for (let i = 0; i < MAX; i++) await inject(address, BOARDS, first.key);
    expect((await inject(address, BOARDS, first.key)).statusCode).toBe(429);
    const other = await inject(address, BOARDS, second.key);
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
    const anonymous = await inject(address, BOARDS);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
  });

  it('limits requests without a valid key per client address, 401s included', async () => {
    const address = newAddress();
    const responses = [];
    for (let i = 0; i < MAX; i++) {
      responses.push(await inject(address, BOARDS, i % 2 === 0 ? undefined : 'ak_not_a_key'));
    }
    expect(responses.map((r) => r.statusCode)).toEqual(Array(MAX).fill(401));
    expect(responses.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(
      Array.from({ length: MAX }, (_, i) => String(MAX - 1 - i)),
    );
    const limited = await inject(address, BOARDS);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expectResetSeconds(limited.headers['retry-after']);
    // Another address still has its whole budget.
    expect((await inject(newAddress(), BOARDS)).headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
  });

  it('puts the headers on 404s of unknown API paths, counted like any request', async () => {
    const { key } = await t.createKey('all');
    const address = newAddress();
    const unknown = await inject(address, '/api/ext/v1/no-such-thing', key);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
    expect(limitHeaders(unknown)).toMatchObject({ limit: String(MAX), remaining: String(MAX - 1) });
    const wrongMethod = await inject(address, '/api/ext/v1/boards/brd_x/lanes/lane_x', key, 'POST');
    expect(wrongMethod.statusCode).toBe(404);
    expect(wrongMethod.headers['x-ratelimit-remaining']).toBe(String(MAX - 2));
  });

  it('does not limit /healthz or put the headers on it', async () => {
    const address = newAddress();
    for (let i = 0; i < MAX + 3; i++) {
      const res = await inject(address, '/healthz');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect((await inject(address, BOARDS)).headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
  });

  it('starts a fresh budget when the window has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T10:00:00.000Z'));
    const { key } = await t.createKey('all');
    const address = newAddress();
    for (let i = 0; i < MAX; i++) await inject(address, BOARDS, key);

    vi.setSystemTime(new Date('2026-11-21T10:00:45.000Z'));
    const limited = await inject(address, BOARDS, key);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('15');
    expect(limited.headers['x-ratelimit-reset']).toBe('15');

    vi.setSystemTime(new Date('2026-11-21T10:01:00.000Z'));
    const fresh = await inject(address, BOARDS, key);
    expect(fresh.statusCode).toBe(200);
    expect(limitHeaders(fresh)).toEqual({ limit: String(MAX), remaining: String(MAX - 1), reset: '60' });
  });
});

describe('rate limit configuration', () => {
  it('defaults to 600 requests per minute', () => {
    expect(loadConfig({}).rateLimit).toEqual({ max: 600, windowMs: 60_000 });
  });

  it('takes LANEBOARD_RATE_LIMIT_MAX and LANEBOARD_RATE_LIMIT_WINDOW', async () => {
    const { rateLimit } = loadConfig({ LANEBOARD_RATE_LIMIT_MAX: '2', LANEBOARD_RATE_LIMIT_WINDOW: '90s' });
    const t = await buildTestApp('sqlite', { rateLimit });
    try {
      const { key } = await t.createKey('all');
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push(await t.request(key, 'GET', BOARDS));
      expect(statuses.map((r) => r.statusCode)).toEqual([200, 200, 429]);
      expect(limitHeaders(statuses[0]!)).toEqual({ limit: '2', remaining: '1', reset: '90' });
    } finally {
      await t.close();
    }
  });
});

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? null;

/** An app on `database` as main.ts builds it, with the given Redis client as the counter store. */
async function appWithRedis(db: TestDatabase, redis: Redis): Promise<FastifyInstance> {
  const { services } = await testRuntime(db.database);
  const app = await buildApp({
    database: db.database,
    services,
    rateLimit: { max: MAX, windowMs: WINDOW_MS },
    redis,
  });
  await app.ready();
  return app;
}

async function createAllBoardsKey(db: TestDatabase): Promise<string> {
  const { services } = await testRuntime(db.database);
  const created = await services.apiKeys.createKey(
    { kind: 'system', origin: 'cli', name: 'CLI' },
    { name: 'redis test', allBoards: true, grants: [] },
  );
  return created.key;
}

const get = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: BOARDS, headers: { authorization: `Bearer ${key}` } });

describe.skipIf(TEST_REDIS_URL === null)('rate limiting with Redis', () => {
  // A key prefix of its own per run, so parallel or repeated runs never share counters.
  const prefix = `laneboard-test-${randomBytes(6).toString('hex')}:`;
  let db: TestDatabase;
  let redis: Redis;
  let apps: FastifyInstance[];
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    redis = new Redis(TEST_REDIS_URL as string, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
    // Two instances with their own connections, as two processes behind a load balancer would have.
    const second = redis.duplicate();
    apps = [await appWithRedis(db, redis), await appWithRedis(db, second)];
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      const unprefixed = keys.map((k) => k.slice(prefix.length));
      if (unprefixed.length > 0) await redis.del(...unprefixed);
      redis.disconnect();
    }
    await db?.drop();
  });

  it('shares one budget per key between instances', async () => {
    const key = await createAllBoardsKey(db);
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const remaining = [];
    for (const app of [a, b, a, b, a]) {
      const res = await get(app, key);
      expect(res.statusCode).toBe(200);
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const limited = await get(b, key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expectResetSeconds(limited.headers['retry-after']);
    expectResetSeconds(limited.headers['x-ratelimit-reset']);

    // The counters live in Redis under this run's prefix and expire with the window.
    const stored = await redis.keys(`${prefix}*`);
    expect(stored.length).toBeGreaterThan(0);
    const ttl = await redis.pttl(stored[0]!.slice(prefix.length));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
  });

  it('keeps separate budgets for separate keys', async () => {
    const [first, second] = [await createAllBoardsKey(db), await createAllBoardsKey(db)];
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    for (let i = 0; i < MAX; i++) await get(a, first);
    expect((await get(b, first)).statusCode).toBe(429);
    const other = await get(b, second);
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
  });
});

describe('rate limiting when Redis fails', () => {
  it('serves requests instead of failing them', async () => {
    const db = await createTestDatabase('sqlite');
    // Nothing listens on port 1; with no offline queue and no retries every command fails at once.
    const broken = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const app = await appWithRedis(db, broken);
    try {
      const key = await createAllBoardsKey(db);
      for (let i = 0; i < MAX + 2; i++) expect((await get(app, key)).statusCode).toBe(200);
    } finally {
      await app.close();
      broken.disconnect();
      await db.drop();
    }
  });
});
