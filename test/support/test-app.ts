import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Dialect } from '../../src/db/schema.js';
import type { Actor, Permission } from '../../src/domain/actor.js';
import type { EventRecorder } from '../../src/domain/events.js';
import { SecretBox } from '../../src/lib/secret-box.js';
import type { Clock } from '../../src/lib/time.js';
import { systemClock } from '../../src/lib/time.js';
import { createServices, type Services } from '../../src/services.js';
import { OutboxEventRecorder } from '../../src/webhooks/outbox.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const TEST_MASTER_KEY = 'test-master-key-0123456789abcdef0123456789';
const OPERATOR: Actor = { kind: 'system', origin: 'cli' };

export interface TestAppOptions {
  rateLimit?: { max: number; windowMs: number };
  clock?: Clock;
  events?: EventRecorder;
}

export interface TestApp {
  app: FastifyInstance;
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
  const clock = options.clock ?? systemClock;
  const services = createServices({
    database: db.database,
    secrets: new SecretBox(TEST_MASTER_KEY),
    clock,
    events: options.events ?? new OutboxEventRecorder(() => {}, clock),
  });
  const app = await buildApp({
    database: db.database,
    services,
    rateLimit: options.rateLimit ?? { max: 1_000_000, windowMs: 60_000 },
  });
  await app.ready();
  return {
    app,
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
      await db.drop();
    },
  };
}
