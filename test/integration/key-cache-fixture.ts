import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Database } from '../../src/db/database.js';
import type { Dialect } from '../../src/db/schema.js';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import { useFixture, useTestApp } from '../support/dialects.js';
import { type SecondInstance, startSecondInstance } from '../support/second-instance.js';
import type { TestApp } from '../support/test-app.js';
import { waitUntil } from '../support/wait.js';

/*
 * Key lookups are cached per instance; revocations and grant changes must still apply to the next
 * request — on the instance that made them, on a second instance sharing the database, and when another
 * process (the CLI) writes the database directly.
 */

export function get(app: FastifyInstance, key: string, url: string) {
  return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
}

export function postLane(app: FastifyInstance, key: string, boardId: string) {
  return app.inject({
    method: 'POST',
    url: `/api/ext/v1/boards/${boardId}/lanes`,
    headers: { authorization: `Bearer ${key}` },
    payload: { name: 'Lane' },
  });
}

/** Writes as another process would, on a connection of its own (the CLI's `keys revoke`, say). */
export async function writeFromOutside(t: TestApp, statement: string, values: unknown[]): Promise<void> {
  if (t.db.sqliteFile) {
    const other = new SqliteDatabase(t.db.sqliteFile);
    other.prepare(statement.replace(/\$\d+/g, '?')).run(...values);
    other.close();
    return;
  }
  const client = new pg.Client({ connectionString: t.db.databaseUrl as string });
  await client.connect();
  await client.query(statement, values);
  await client.end();
}

/** Until the change stamp can be read (PostgreSQL: its LISTEN connection is up), nothing is cached. */
export async function listening(database: Database): Promise<string> {
  return waitUntil('the key change stamp', async () => database.keyChanges.current() ?? undefined);
}

/**
 * On PostgreSQL another instance hears of a change by a notification, delivered asynchronously at
 * commit; its next request after that is the one that must see the change.
 */
export async function notified(database: Database, before: string): Promise<void> {
  await waitUntil('the change to reach the instance', async () =>
    database.keyChanges.current() !== before ? true : undefined,
  );
}

export interface KeyCacheInstances {
  /** The test app (the instance the tests mostly use). */
  t: TestApp;
  /** A second instance on the same database (its own connection or pool, as another process has). */
  b: SecondInstance;
  /** A board both instances have heard of (created by the operator). */
  board: { id: string };
}

/** Two app instances on one fresh database of `dialect`, both listening for key changes. */
export function useKeyCacheInstances(dialect: Dialect): KeyCacheInstances {
  const t = useTestApp(dialect);
  const b = useFixture(
    'the second instance',
    () => startSecondInstance(t.db, { poolSize: 3 }),
    (instance) => instance.close(),
  );
  const board = useFixture(
    'the cached board',
    async () => {
      const { id } = await t.services.boards.createBoard(OPERATOR, { name: 'Cached' });
      await listening(t.db.database);
      await listening(b.database);
      return { id };
    },
    async () => {},
  );
  return { t, b, board };
}
