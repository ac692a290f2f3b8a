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

/* Key lookups are cached per instance: changes made through an instance apply to the next request (key-cache-fixture.ts). */
describeEachDialect('key lookup cache', (dialect) => {
  const { t, b, board } = useKeyCacheInstances(dialect);

  it('the change stamp stays while nothing is written and moves when a key changes elsewhere', async () => {
    const { key, id } = await t.createKey({ [board.id]: 'read' });
    const before = await listening(b.database);
    expect(b.database.keyChanges.current()).toBe(before);
    await writeFromOutside(t, 'update api_keys set name = $1 where id = $2', ['renamed', id]);
    await notified(b.database, before);
    expect((await get(b.app, key, `/api/ext/v1/boards/${board.id}`)).statusCode).toBe(200);
  });

  it('a revocation applies to the next request on the instance that made it and on another one', async () => {
    const { key, id } = await t.createKey({ [board.id]: 'edit' });
    const url = `/api/ext/v1/boards/${board.id}/tasks`;
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
    const { key, id } = await t.createKey({ [board.id]: 'read' });
    for (const app of [t.app, b.app, t.app, b.app])
      expect((await postLane(app, key, board.id)).statusCode).toBe(403);
    const before = await listening(t.db.database);

    // Made on the second instance this time.
    await b.services.apiKeys.grantBoard(OPERATOR, id, { boardId: board.id, permission: 'edit' });
    expect((await postLane(b.app, key, board.id)).statusCode).toBe(201);
    await notified(t.db.database, before);
    expect((await postLane(t.app, key, board.id)).statusCode).toBe(201);
  });

  it('a board a key creates is usable by that key at once', async () => {
    const { key } = await t.createKey({ [board.id]: 'read' });
    expect((await get(t.app, key, `/api/ext/v1/boards/${board.id}`)).statusCode).toBe(200);
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
    const { key } = await t.createKey({ [board.id]: 'edit' });
    const unused = await listening(t.db.database);
    const lane = (await postLane(t.app, key, board.id)).json().data;
    // A key's first use records last_used_at, a key write: wait for it to be heard.
    await notified(t.db.database, unused);
    const before = await listening(t.db.database);
    for (let i = 0; i < 3; i++) {
      const created = await t.app.inject({
        method: 'POST',
        url: `/api/ext/v1/boards/${board.id}/tasks`,
        headers: { authorization: `Bearer ${key}` },
        payload: { title: `Task ${i}`, laneId: lane.id },
      });
      expect(created.statusCode).toBe(201);
    }
    expect(t.db.database.keyChanges.current()).toBe(before);
  });

  it("a key write on the instance's own connection that bypasses the key service applies at once", async () => {
    const { key, id } = await t.createKey({ [board.id]: 'read' });
    const url = `/api/ext/v1/boards/${board.id}`;
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
});
