import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Dialect } from '../../src/db/schema.js';
import type { ActivityConsumer } from '../../src/domain/activities/activity-types.js';
import { CLI_OPERATOR as OPERATOR, type Permission } from '../../src/domain/actor.js';
import type { Clock } from '../../src/lib/time.js';
import type { Runtime } from '../../src/runtime.js';
import type { Services } from '../../src/services.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { testRuntime } from './runtime.js';

export { TEST_MASTER_KEY } from './runtime.js';

export interface TestAppOptions {
  rateLimit?: { max: number; windowMs: number };
  clock?: Clock;
  /** An extra activity consumer (tests record what the services record). */
  events?: ActivityConsumer;
  /** LANEBOARD_ASSET_MAX_BYTES for this app (default 10 MiB). */
  assetMaxBytes?: number;
}

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  services: Services;
  db: TestDatabase;
  /** Creates an API key as the operator would with the CLI. */
  createKey(access: 'all' | Record<string, Permission>, name?: string): Promise<{ id: string; key: string }>;
  /** `app.inject` with `Authorization: Bearer <key>` and a JSON body. */
  request(
    key: string | null,
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function buildTestApp(dialect: Dialect, options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(dialect);
  const runtime = await testRuntime(db.database, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.events ? { activityConsumers: [options.events] } : {}),
    ...(options.assetMaxBytes === undefined ? {} : { config: { assetMaxBytes: options.assetMaxBytes } }),
  });
  const services = runtime.services;
  const app = await buildApp({
    database: db.database,
    services,
    rateLimit: options.rateLimit ?? { max: 1_000_000, windowMs: 60_000 },
  });
  await app.ready();
  return {
    app,
    runtime,
    services,
    db,
    async createKey(access, name = 'test key') {
      const allBoards = access === 'all';
      const grants = allBoards
        ? []
        : Object.entries(access).map(([boardId, permission]) => ({ boardId, permission }));
      if (!allBoards && grants.length === 0) {
        // A key with no grants yet: create it with a throwaway board grant, as the CLI requires one.
        const board = await services.boards.createBoard(OPERATOR, { name: 'scratch' });
        grants.push({ boardId: board.id, permission: 'read' });
      }
      const created = await services.apiKeys.createKey(OPERATOR, { name, allBoards, grants });
      return { id: created.id, key: created.key };
    },
    request(key, method, url, body) {
      const headers: Record<string, string> = {};
      if (key !== null) headers.authorization = `Bearer ${key}`;
      return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    },
    async close() {
      await app.close();
      await runtime.close();
      await db.drop();
    },
  };
}
