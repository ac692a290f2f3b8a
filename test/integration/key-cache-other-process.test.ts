import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import { describeEachDialect } from '../support/dialects.js';
import {
  get,
  listening,
  notified,
  postLane,
  useKeyCacheInstances,
  writeFromOutside,
} from './key-cache-fixture.js';

/* Writes by another process (the CLI) reach the key and webhook caches (key-cache-fixture.ts). */
describeEachDialect('key lookup cache and other processes', (dialect) => {
  const { t, b, board } = useKeyCacheInstances(dialect);

  it('a revocation written by another process (the CLI) applies to the next request after it arrives', async () => {
    const { key, id } = await t.createKey({ [board.id]: 'read' });
    const url = `/api/ext/v1/boards/${board.id}`;
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
        ['key_stamp', board.id, 'read', now],
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
      await writeFromOutside(t, 'update boards set name = $1 where id = $2', ['Renamed elsewhere', board.id]);
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
      const { id: keyId } = await t.createKey({ [board.id]: 'read' });
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
    const { key, id: keyId } = await t.createKey({ [board.id]: 'edit' });
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
    expect((await postLane(t.app, key, board.id)).statusCode).toBe(201);
    let before = await listening(t.db.database);
    const webhook = await b.services.webhooks.createWebhook(OPERATOR, {
      url: 'https://hooks.example.com/laneboard',
      events: ['lane.created'],
      apiKeyId: keyId,
    });
    await notified(t.db.database, before);
    expect((await postLane(t.app, key, board.id)).statusCode).toBe(201);
    expect(await queuedFor(webhook.id)).toBe(1);

    // Paused by another process: the next change here queues nothing for it.
    before = await listening(t.db.database);
    await writeFromOutside(t, 'update webhooks set active = 0 where id = $1', [webhook.id]);
    await notified(t.db.database, before);
    expect((await postLane(t.app, key, board.id)).statusCode).toBe(201);
    expect(await queuedFor(webhook.id)).toBe(1);

    // Resumed on this instance: at once.
    await t.services.webhooks.updateWebhook(OPERATOR, webhook.id, { active: true });
    expect((await postLane(t.app, key, board.id)).statusCode).toBe(201);
    expect(await queuedFor(webhook.id)).toBe(2);
  });
});
