import os from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import type { Runtime } from '../../src/runtime.js';
import type { Services } from '../../src/services.js';
import { DIALECTS } from '../support/database.js';
import { testRuntime } from '../support/runtime.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { waitUntil } from '../support/wait.js';

/*
 * Key lookups are cached per instance; revocations and grant changes must still apply to the next
 * request — on the instance that made them, on a second instance sharing the database, and when another
 * process (the CLI) writes the database directly.
 */

interface Instance {
  app: FastifyInstance;
  runtime: Runtime;
  services: Services;
  database: Database;
}

/** A second app instance on the test app's database (its own connection or pool, as another process has). */
async function secondInstance(t: TestApp): Promise<Instance> {
  const database = openDatabase({
    databaseUrl: t.db.databaseUrl,
    dataDir: os.tmpdir(),
    poolSize: 3,
    ...(t.db.sqliteFile ? { sqliteFile: t.db.sqliteFile } : {}),
  });
  const runtime = await testRuntime(database);
  const services = runtime.services;
  const app = await buildApp({ database, services, rateLimit: { max: 1_000_000, windowMs: 60_000 } });
  await app.ready();
  return { app, runtime, services, database };
}

function get(app: FastifyInstance, key: string, url: string) {
  return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
}

function postLane(app: FastifyInstance, key: string, boardId: string) {
  return app.inject({
    method: 'POST',
    url: `/api/ext/v1/boards/${boardId}/lanes`,
    headers: { authorization: `Bearer ${key}` },
    payload: { name: 'Lane' },
  });
}

/** Writes as another process would, on a connection of its own (the CLI's `keys revoke`, say). */
async function writeFromOutside(t: TestApp, statement: string, values: unknown[]): Promise<void> {
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

describe.each(DIALECTS)('key lookup cache ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  let b: Instance;
  let boardId: string;

  /** Until the change stamp can be read (PostgreSQL: its LISTEN connection is up), nothing is cached. */
  async function listening(database: Database): Promise<string> {
    return waitUntil('the key change stamp', async () => database.keyChanges.current() ?? undefined);
  }

  /**
   * On PostgreSQL another instance hears of a change by a notification, delivered asynchronously at
   * commit; its next request after that is the one that must see the change.
   */
  async function notified(database: Database, before: string): Promise<void> {
    await waitUntil('the change to reach the instance', async () =>
      database.keyChanges.current() !== before ? true : undefined,
    );
  }

  beforeAll(async () => {
    if (skip) return;
    t = await buildTestApp(dialect);
    b = await secondInstance(t);
    boardId = (await t.services.boards.createBoard(OPERATOR, { name: 'Cached' })).id;
    await listening(t.db.database);
    await listening(b.database);
  });
  afterAll(async () => {
    await b?.app.close();
    await b?.runtime.close();
    await b?.database.close();
    await t?.close();
  });

  describe.skipIf(skip)('', () => {
    it('the change stamp stays while nothing is written and moves when a key changes elsewhere', async () => {
      const { key, id } = await t.createKey({ [boardId]: 'read' });
      const before = await listening(b.database);
      expect(b.database.keyChanges.current()).toBe(before);
      await writeFromOutside(t, 'update api_keys set name = $1 where id = $2', ['renamed', id]);
      await notified(b.database, before);
      expect((await get(b.app, key, `/api/ext/v1/boards/${boardId}`)).statusCode).toBe(200);
    });

    it('a revocation applies to the next request on the instance that made it and on another one', async () => {
      const { key, id } = await t.createKey({ [boardId]: 'edit' });
      const url = `/api/ext/v1/boards/${boardId}/tasks`;
      // Twice on each instance: the second answer comes from the cache.
      for (const app of [t.app, b.app, t.app, b.app]) expect((await get(app, key, url)).statusCode).toBe(200);
      const before = await listening(b.database);

      await t.services.apiKeys.revokeApiKey(OPERATOR, id);
      const here = await get(t.app, key, url);
      expect(here.statusCode).toBe(401);
      expect(here.json().error.code).toBe('invalid_key');
      await notified(b.database, before);
      expect((await get(b.app, key, url)).statusCode).toBe(401);
    });

    it('a grant change applies to the next request on both instances', async () => {
      const { key, id } = await t.createKey({ [boardId]: 'read' });
      for (const app of [t.app, b.app, t.app, b.app])
        expect((await postLane(app, key, boardId)).statusCode).toBe(403);
      const before = await listening(t.db.database);

      // Made on the second instance this time.
      await b.services.apiKeys.grantBoard(OPERATOR, id, { boardId, permission: 'edit' });
      expect((await postLane(b.app, key, boardId)).statusCode).toBe(201);
      await notified(t.db.database, before);
      expect((await postLane(t.app, key, boardId)).statusCode).toBe(201);
    });

    it('a board a key creates is usable by that key at once', async () => {
      const { key } = await t.createKey({ [boardId]: 'read' });
      expect((await get(t.app, key, `/api/ext/v1/boards/${boardId}`)).statusCode).toBe(200);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/ext/v1/boards',
        headers: { authorization: `Bearer ${key}` },
        payload: { name: 'Mine' },
      });
      expect(created.statusCode).toBe(201);
      expect((await postLane(t.app, key, created.json().data.id)).statusCode).toBe(201);
    });

    it('task writes leave the stamp alone, so a burst of creates keeps the cached lookup', async () => {
      const { key } = await t.createKey({ [boardId]: 'edit' });
      const unused = await listening(t.db.database);
      const lane = (await postLane(t.app, key, boardId)).json().data;
      // A key's first use records last_used_at, a key write: wait for it to be heard.
      await notified(t.db.database, unused);
      const before = await listening(t.db.database);
      for (let i = 0; i < 3; i++) {
        const created = await t.app.inject({
          method: 'POST',
          url: `/api/ext/v1/boards/${boardId}/tasks`,
          headers: { authorization: `Bearer ${key}` },
          payload: { title: `Task ${i}`, laneId: lane.id },
        });
        expect(created.statusCode).toBe(201);
      }
      expect(t.db.database.keyChanges.current()).toBe(before);
    });

    it("a key write on the instance's own connection that bypasses the key service applies at once", async () => {
      const { key, id } = await t.createKey({ [boardId]: 'read' });
      const url = `/api/ext/v1/boards/${boardId}`;
      expect((await get(t.app, key, url)).statusCode).toBe(200);
      expect((await get(t.app, key, url)).statusCode).toBe(200);
      const before = await listening(t.db.database);

      await sql`update api_keys set revoked_at = ${new Date().toISOString()} where id = ${id}`.execute(
        t.db.database.kysely,
      );
      if (dialect === 'sqlite') expect(t.db.database.keyChanges.current()).not.toBe(before);
      await notified(t.db.database, before);
      expect((await get(t.app, key, url)).statusCode).toBe(401);
    });

    it('a revocation written by another process (the CLI) applies to the next request after it arrives', async () => {
      const { key, id } = await t.createKey({ [boardId]: 'read' });
      const url = `/api/ext/v1/boards/${boardId}`;
      expect((await get(t.app, key, url)).statusCode).toBe(200);
      expect((await get(t.app, key, url)).statusCode).toBe(200);
      const before = await listening(t.db.database);

      await writeFromOutside(t, 'update api_keys set revoked_at = $1 where id = $2', [
        new Date().toISOString(),
        id,
      ]);
      // SQLite sees it at once (data_version); PostgreSQL once the notification is in.
      if (dialect === 'sqlite') expect(t.db.database.keyChanges.current()).not.toBe(before);
      await notified(t.db.database, before);
      expect((await get(t.app, key, url)).statusCode).toBe(401);
    });

    it('every write to keys, grants and webhooks by another process moves the stamp', async () => {
      const now = new Date().toISOString();
      const writes: Array<[string, unknown[]]> = [
        [
          'insert into api_keys (id, name, key_hash, key_sealed, all_boards, created_at) values ($1, $2, $3, $4, 0, $5)',
          ['key_stamp', 'stamp', 'hash_stamp', 'sealed', now],
        ],
        ['update api_keys set name = $1 where id = $2', ['stamp 2', 'key_stamp']],
        [
          'insert into api_key_grants (api_key_id, board_id, permission, created_at) values ($1, $2, $3, $4)',
          ['key_stamp', boardId, 'read', now],
        ],
        ['update api_key_grants set permission = $1 where api_key_id = $2', ['edit', 'key_stamp']],
        ['delete from api_key_grants where api_key_id = $1', ['key_stamp']],
        [
          'insert into webhooks (id, api_key_id, url, events, active, secret_sealed, created_at, updated_at) values ($1, $2, $3, $4, 1, $5, $6, $7)',
          ['wh_stamp', 'key_stamp', 'https://hooks.example.com/x', '["*"]', 'sealed', now, now],
        ],
        ['update webhooks set active = 0 where id = $1', ['wh_stamp']],
        ['delete from webhooks where id = $1', ['wh_stamp']],
        ['delete from api_keys where id = $1', ['key_stamp']],
      ];
      for (const [statement, values] of writes) {
        const before = await listening(t.db.database);
        await writeFromOutside(t, statement, values);
        await notified(t.db.database, before);
      }
    });

    it.skipIf(dialect !== 'sqlite')(
      'commits of other connections that write no key, grant or webhook (the dispatcher thread, the CLI) leave the stamp alone; a cascade moves it',
      async () => {
        const before = await listening(t.db.database);
        await writeFromOutside(t, 'update boards set name = $1 where id = $2', [
          'Renamed elsewhere',
          boardId,
        ]);
        expect(t.db.database.keyChanges.current()).toBe(before);
        const doomed = (await t.services.boards.createBoard(OPERATOR, { name: 'Doomed' })).id;
        await t.createKey({ [doomed]: 'read' });
        const granted = await listening(t.db.database);
        // Deleting the board deletes its grants by cascade: the triggers on grants fire for them too.
        await writeFromOutside(t, 'delete from boards where id = $1', [doomed]);
        expect(t.db.database.keyChanges.current()).not.toBe(granted);
      },
    );

    it.skipIf(dialect !== 'sqlite')(
      'a stamp read inside a transaction that wrote a webhook and rolled back never comes back',
      async () => {
        const { id: keyId } = await t.createKey({ [boardId]: 'read' });
        const before = await listening(t.db.database);
        const insert = (db: typeof t.db.database.kysely) =>
          sql`insert into webhooks (id, api_key_id, url, events, active, secret_sealed, created_at, updated_at)
            values ('wh_rolled', ${keyId}, 'https://hooks.example.com/r', '["*"]', 1, 'sealed', 'now', 'now')`.execute(
            db,
          );
        let during: string | null = null;
        await expect(
          t.db.database.kysely.transaction().execute(async (trx) => {
            await insert(trx);
            during = t.db.database.keyChanges.current();
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        expect(during).not.toBe(before);
        const after = t.db.database.keyChanges.current();
        expect(after).not.toBe(during);
        // The same write committed moves the counter to the value it had inside: the stamp still differs.
        await insert(t.db.database.kysely);
        expect(t.db.database.keyChanges.current()).not.toBe(during);
        expect(t.db.database.keyChanges.current()).not.toBe(after);
      },
    );

    it('the webhooks a change goes to follow webhook changes made on another instance or process', async () => {
      const { key, id: keyId } = await t.createKey({ [boardId]: 'edit' });
      const queuedFor = async (webhookId: string) =>
        Number(
          (
            await t.db.database.kysely
              .selectFrom('webhook_deliveries')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('webhook_id', '=', webhookId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      // Matching is read (and kept) before the webhook exists.
      expect((await postLane(t.app, key, boardId)).statusCode).toBe(201);
      let before = await listening(t.db.database);
      const webhook = await b.services.webhooks.createWebhook(OPERATOR, {
        url: 'https://hooks.example.com/laneboard',
        events: ['lane.created'],
        apiKeyId: keyId,
      });
      await notified(t.db.database, before);
      expect((await postLane(t.app, key, boardId)).statusCode).toBe(201);
      expect(await queuedFor(webhook.id)).toBe(1);

      // Paused by another process: the next change here queues nothing for it.
      before = await listening(t.db.database);
      await writeFromOutside(t, 'update webhooks set active = 0 where id = $1', [webhook.id]);
      await notified(t.db.database, before);
      expect((await postLane(t.app, key, boardId)).statusCode).toBe(201);
      expect(await queuedFor(webhook.id)).toBe(1);

      // Resumed on this instance: at once.
      await t.services.webhooks.updateWebhook(OPERATOR, webhook.id, { active: true });
      expect((await postLane(t.app, key, boardId)).statusCode).toBe(201);
      expect(await queuedFor(webhook.id)).toBe(2);
    });
  });
});
