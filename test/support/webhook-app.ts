import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Dialect } from '../../src/db/schema.js';
import { CLI_OPERATOR as OPERATOR, type Permission } from '../../src/domain/actor.js';
import type { HostResolver } from '../../src/lib/net/url-guard.js';
import { type Clock, systemClock } from '../../src/lib/time.js';
import type { Runtime } from '../../src/runtime.js';
import type { Services } from '../../src/services.js';
import type { Dispatcher } from '../../src/webhooks/dispatcher-thread.js';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { useFixture } from './dialects.js';
import { testConfig, testRuntime } from './runtime.js';
import { waitUntil } from './wait.js';

export interface WebhookAppOptions {
  allowHttp?: boolean;
  allowPrivate?: boolean;
  timeoutMs?: number;
  retryDelaysMs?: number[];
  clock?: Clock;
  /** DNS for URL checks at create/update. */
  urlResolve?: HostResolver;
  /** DNS for the dispatcher's connections. */
  connectResolve?: HostResolver;
  pollIntervalMs?: number;
  maxConcurrency?: number;
  perHostConcurrency?: number;
  /** Start the dispatcher at once (default true). */
  startDispatcher?: boolean;
}

export interface WebhookApp {
  app: FastifyInstance;
  runtime: Runtime;
  services: Services;
  db: TestDatabase;
  dispatcher: Dispatcher;
  /**
   * Resolves once the app's dispatcher and every dispatcher made by newDispatcher are idle: nothing in
   * flight or waiting, every result written, nothing due at the clock's time. What a test awaits before
   * checking that nothing more was sent (instead of sleeping).
   */
  whenIdle(): Promise<void>;
  /** A second dispatcher on the same database, as another instance would run. */
  newDispatcher(overrides?: Partial<WebhookAppOptions>): WebhookDispatcher;
  createKey(access: 'all' | Record<string, Permission>): Promise<{ id: string; key: string }>;
  request(
    key: string,
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** POST /webhooks as `key`; returns the created webhook (with its secret). */
  createWebhook(
    key: string,
    url: string,
    events?: string[],
  ): Promise<{ id: string; secret: string; url: string; events: string[] }>;
  /** POST /boards as `key`; returns the board id. */
  createBoard(key: string, name?: string): Promise<string>;
  close(): Promise<void>;
}

/** The HTTP app with the webhook service and a running dispatcher, configured for a receiver on 127.0.0.1. */
export async function buildWebhookApp(
  dialect: Dialect,
  options: WebhookAppOptions = {},
): Promise<WebhookApp> {
  const db = await createTestDatabase(dialect);
  const clock = options.clock ?? systemClock;
  const dispatcherSettings = (o: WebhookAppOptions) => ({
    timeoutMs: o.timeoutMs ?? 2000,
    retryDelaysMs: o.retryDelaysMs ?? [100, 200],
    allowPrivate: o.allowPrivate ?? true,
    pollIntervalMs: o.pollIntervalMs ?? 200,
    ...(o.connectResolve ? { resolve: o.connectResolve } : {}),
    ...(o.maxConcurrency ? { maxConcurrency: o.maxConcurrency } : {}),
    ...(o.perHostConcurrency ? { perHostConcurrency: o.perHostConcurrency } : {}),
  });
  const runtime = await testRuntime(db.database, {
    clock,
    config: {
      webhooks: {
        ...testConfig().webhooks,
        allowHttp: options.allowHttp ?? true,
        allowPrivate: options.allowPrivate ?? true,
      },
    },
    ...(options.urlResolve ? { urlResolve: options.urlResolve } : {}),
    dispatcher: dispatcherSettings(options),
  });
  const { services, dispatcher } = runtime;
  const dispatchers: WebhookDispatcher[] = [];
  // Another instance's dispatcher on the same database (its own settings, the same secrets and clock).
  const makeDispatcher = (overrides: Partial<WebhookAppOptions> = {}) => {
    const extra = new WebhookDispatcher({
      database: db.database,
      secrets: runtime.secrets,
      clock,
      ...dispatcherSettings({ ...options, ...overrides }),
    });
    dispatchers.push(extra);
    return extra;
  };
  const app = await buildApp({
    database: db.database,
    services,
    rateLimit: { max: 1_000_000, windowMs: 60_000 },
  });
  await app.ready();
  if (options.startDispatcher !== false) dispatcher.start();

  const request: WebhookApp['request'] = (key, method, url, body) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  return {
    app,
    runtime,
    services,
    db,
    dispatcher,
    newDispatcher: makeDispatcher,
    async whenIdle() {
      await Promise.all([dispatcher, ...dispatchers].map((d) => d.whenIdle()));
    },
    async createKey(access) {
      let grants =
        access === 'all'
          ? []
          : Object.entries(access).map(([boardId, permission]) => ({ boardId, permission }));
      if (access !== 'all' && grants.length === 0) {
        const scratch = await services.boards.createBoard(OPERATOR, { name: 'scratch' });
        grants = [{ boardId: scratch.id, permission: 'read' }];
      }
      const created = await services.apiKeys.createKey(OPERATOR, {
        name: 'test',
        allBoards: access === 'all',
        grants,
      });
      return { id: created.id, key: created.key };
    },
    request,
    async createWebhook(key, url, events = ['*']) {
      const res = await request(key, 'POST', '/api/ext/v1/webhooks', { url, events });
      if (res.statusCode !== 201) throw new Error(`create webhook: ${res.statusCode} ${res.body}`);
      return res.json().data;
    },
    async createBoard(key, name = 'Board') {
      const res = await request(key, 'POST', '/api/ext/v1/boards', { name });
      if (res.statusCode !== 201) throw new Error(`create board: ${res.statusCode} ${res.body}`);
      return res.json().data.id;
    },
    async close() {
      for (const d of dispatchers) await d.stop();
      await app.close();
      await runtime.close();
      await db.drop();
    },
  };
}

/**
 * No dispatcher, the production URL rules and a public address for every name: for tests that look at
 * what is queued, not at what is sent.
 */
export const QUEUE_ONLY: WebhookAppOptions = {
  startDispatcher: false,
  allowHttp: false,
  allowPrivate: false,
  urlResolve: async () => ['93.184.215.14'],
};

/** The webhook app of `dialect` for the enclosing describe, closed afterwards. */
export function useWebhookApp(dialect: Dialect, options: WebhookAppOptions = {}): WebhookApp {
  return useFixture(
    `the ${dialect} webhook app`,
    () => buildWebhookApp(dialect, options),
    (t) => t.close(),
  );
}

/** The webhook detail's `recent_deliveries`, newest first, as `key` sees them. */
export async function recentDeliveries(
  t: WebhookApp,
  key: string,
  webhookId: string,
): Promise<Array<Record<string, unknown>>> {
  const res = await t.request(key, 'GET', `/api/ext/v1/webhooks/${webhookId}`);
  return res.json().data.recent_deliveries as Array<Record<string, unknown>>;
}

/** The newest delivery of the webhook (the test has made sure there is one). */
export async function latestDelivery(
  t: WebhookApp,
  key: string,
  webhookId: string,
): Promise<Record<string, unknown>> {
  return (await recentDeliveries(t, key, webhookId))[0] as Record<string, unknown>;
}

/** Polls the webhook's detail until its newest delivery satisfies `done`. */
export function settled(
  t: WebhookApp,
  key: string,
  webhookId: string,
  done: (d: Record<string, unknown>) => boolean,
) {
  return waitUntil(
    'the delivery to settle',
    async () => {
      const [latest] = await recentDeliveries(t, key, webhookId);
      return latest && done(latest) ? latest : undefined;
    },
    10_000,
  );
}
