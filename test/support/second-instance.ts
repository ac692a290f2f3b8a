import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import type { Clock } from '../../src/lib/time.js';
import type { Runtime } from '../../src/runtime.js';
import type { Services } from '../../src/services.js';
import { openSecondConnection, type TestDatabase } from './database.js';
import { testRuntime } from './runtime.js';

/** Another app instance on a test database, as another server behind the same load balancer runs. */
export interface SecondInstance {
  app: FastifyInstance;
  runtime: Runtime;
  services: Services;
  database: Database;
  /** `http://127.0.0.1:<port>` when it listens (`listen: true`), else null. */
  base: string | null;
  /** Closes the app, its runtime and its connection. */
  close(): Promise<void>;
}

/**
 * An app instance on `db` through a connection (SQLite) or pool of `poolSize` (PostgreSQL) of its own,
 * on `clock` if given, listening on a free local port if `listen`; the caller closes it.
 */
export async function startSecondInstance(
  db: TestDatabase,
  { poolSize = 2, clock, listen = false }: { poolSize?: number; clock?: Clock; listen?: boolean } = {},
): Promise<SecondInstance> {
  const database = openSecondConnection(db, poolSize);
  const runtime = await testRuntime(database, clock ? { clock } : {});
  const app = await buildApp({
    database,
    services: runtime.services,
    rateLimit: { max: 1e6, windowMs: 60_000 },
  });
  const close = async () => {
    await app.close();
    await runtime.close();
    await database.close();
  };
  let base: string | null = null;
  try {
    if (listen) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    } else {
      await app.ready();
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { app, runtime, services: runtime.services, database, base, close };
}
