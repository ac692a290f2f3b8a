import { beforeEach, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { API } from '../support/api.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { ManualClock, RecordingEvents } from './task-fixtures.js';

const OPERATOR: Actor = { kind: 'system', origin: 'cli', name: 'CLI' };

describeEachDialect('boards', (dialect) => {
  // A clock the tests move by hand: several boards may share one millisecond.
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00.000Z'));
  const events = new RecordingEvents();
  let taskSeq = 0;

  const t = useTestApp(dialect, { events, clock });
  beforeEach(() => {
    clock.advance(1000);
    events.take();
  });

  async function insertTask(boardId: string, laneId: string, archived: boolean): Promise<string> {
    taskSeq += 1;
    const id = `task_sql_${dialect}_${taskSeq}`;
    const stamp = new Date(clock.ms).toISOString();
    await t.db.database.kysely
      .insertInto('tasks')
      .values({
        id,
        board_id: boardId,
        lane_id: laneId,
        short_id: `${dialect.slice(0, 2)}${String(taskSeq).padStart(6, '0')}`,
        title: `Task ${taskSeq}`,
        description: '',
        priority: 0,
        tags: '[]',
        archived: archived ? 1 : 0,
        rank: taskSeq,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    return id;
  }

  const rowExists = async (table: 'tasks' | 'lanes' | 'comments', id: string) =>
    (await t.db.database.kysely.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined;

  it('creates a board, grants the creating key edit, and lists it', async () => {
    const { key } = await t.createKey({});
    const created = await t.request(key, 'POST', `${API}/boards`, { name: '  Roadmap  ' });
    expect(created.statusCode).toBe(201);
    const board = created.json().data;
    expect(board).toEqual({ id: board.id, name: 'Roadmap', createdAt: new Date(clock.ms).toISOString() });
    expect(board.id).toMatch(/^brd_/);

    const list = await t.request(key, 'GET', `${API}/boards`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toContainEqual({ id: board.id, name: 'Roadmap', permission: 'edit' });

    const detail = await t.request(key, 'GET', `${API}/boards/${board.id}`);
    expect(detail.json()).toEqual({ data: { id: board.id, name: 'Roadmap', lanes: [], tagColors: [] } });

    // The automatic grant is edit: the creating key may add lanes and delete the board.
    expect((await t.request(key, 'POST', `${API}/boards/${board.id}/lanes`, { name: 'L' })).statusCode).toBe(
      201,
    );
    const other = await t.createKey({});
    expect((await t.request(other.key, 'GET', `${API}/boards/${board.id}`)).statusCode).toBe(403);
    expect((await t.request(key, 'DELETE', `${API}/boards/${board.id}`)).statusCode).toBe(204);
  });

  it('rejects a missing or blank name with validation_error naming the field', async () => {
    const { key } = await t.createKey('all');
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(201) }]) {
      const res = await t.request(key, 'POST', `${API}/boards`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
      expect(res.json().error.message).toContain('name');
    }
    const longest = await t.request(key, 'POST', `${API}/boards`, { name: 'x'.repeat(200) });
    expect(longest.statusCode).toBe(201);
    expect(events.take().map((e) => e.type)).toEqual(['board.created']);
  });

  it('lists boards oldest first, also boards created in the same millisecond', async () => {
    const { key } = await t.createKey({});
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push((await t.request(key, 'POST', `${API}/boards`, { name: `Same ms ${i}` })).json().data.id);
    }
    clock.advance(1);
    ids.push((await t.request(key, 'POST', `${API}/boards`, { name: 'Later' })).json().data.id);
    const listed = (await t.request(key, 'GET', `${API}/boards`))
      .json()
      .data.map((b: { id: string }) => b.id);
    expect(listed.filter((id: string) => ids.includes(id))).toEqual(ids);
  });

  it('an all-boards key sees every board with edit; a granted key only its own, with its permission', async () => {
    const mine = await t.services.boards.createBoard(OPERATOR, { name: 'Operator board' });
    const readable = await t.services.boards.createBoard(OPERATOR, { name: 'Readable' });
    const creator = await t.createKey({ [readable.id]: 'read' });
    const byKey = (await t.request(creator.key, 'POST', `${API}/boards`, { name: 'By key' })).json().data;

    const all = await t.createKey('all');
    const seenByAll = (await t.request(all.key, 'GET', `${API}/boards`)).json().data;
    const everyBoard = await t.db.database.kysely.selectFrom('boards').select(['id']).execute();
    expect(seenByAll.map((b: { id: string }) => b.id).sort()).toEqual(everyBoard.map((b) => b.id).sort());
    expect(new Set(seenByAll.map((b: { permission: string }) => b.permission))).toEqual(new Set(['edit']));

    const seenByCreator = (await t.request(creator.key, 'GET', `${API}/boards`)).json().data;
    expect(seenByCreator).toEqual([
      { id: readable.id, name: 'Readable', permission: 'read' },
      { id: byKey.id, name: 'By key', permission: 'edit' },
    ]);
    expect(seenByCreator.map((b: { id: string }) => b.id)).not.toContain(mine.id);
  });

  it('board detail lists lanes in order with taskCount of non-archived tasks', async () => {
    const { key } = await t.createKey('all');
    const board = (await t.request(key, 'POST', `${API}/boards`, { name: 'Counts' })).json().data;
    const laneIds: string[] = [];
    for (const name of ['Todo', 'Doing', 'Done']) {
      laneIds.push(
        (await t.request(key, 'POST', `${API}/boards/${board.id}/lanes`, { name })).json().data.id,
      );
    }
    const [todo, doing, done] = laneIds as [string, string, string];
    const detail = async () => (await t.request(key, 'GET', `${API}/boards/${board.id}`)).json().data;
    expect((await detail()).lanes).toEqual([
      { id: todo, name: 'Todo', taskCount: 0 },
      { id: doing, name: 'Doing', taskCount: 0 },
      { id: done, name: 'Done', taskCount: 0 },
    ]);

    await insertTask(board.id, todo, false);
    await insertTask(board.id, todo, false);
    await insertTask(board.id, todo, true);
    await insertTask(board.id, done, true);
    await insertTask(board.id, doing, false);
    await t.request(key, 'PATCH', `${API}/boards/${board.id}/lanes/${done}`, { position: 0 });

    expect(await detail()).toEqual({
      id: board.id,
      name: 'Counts',
      lanes: [
        { id: done, name: 'Done', taskCount: 0 },
        { id: todo, name: 'Todo', taskCount: 2 },
        { id: doing, name: 'Doing', taskCount: 1 },
      ],
      tagColors: [],
    });
  });

  it('deleting a board deletes everything in it and records board.deleted', async () => {
    const { key } = await t.createKey({});
    const board = (await t.request(key, 'POST', `${API}/boards`, { name: 'Doomed' })).json().data;
    const lane = (await t.request(key, 'POST', `${API}/boards/${board.id}/lanes`, { name: 'L' })).json().data;
    const taskId = await insertTask(board.id, lane.id, false);
    await t.db.database.kysely
      .insertInto('comments')
      .values({
        id: `cmt_sql_${taskId}`,
        task_id: taskId,
        board_id: board.id,
        body: 'hello',
        author_name: 'Ann',
        author_source: 'api',
        created_at: new Date(clock.ms).toISOString(),
      })
      .execute();
    const all = await t.createKey('all');
    const survivor = (await t.request(all.key, 'POST', `${API}/boards`, { name: 'Survivor' })).json().data;
    events.take();

    const res = await t.request(key, 'DELETE', `${API}/boards/${board.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(events.take()).toEqual([{ type: 'board.deleted', boardId: board.id, data: {} }]);

    expect(await rowExists('lanes', lane.id)).toBe(false);
    expect(await rowExists('tasks', taskId)).toBe(false);
    expect(await rowExists('comments', `cmt_sql_${taskId}`)).toBe(false);
    // Its grant went with it: the creating key no longer has access, an all-boards key finds nothing.
    expect((await t.request(key, 'GET', `${API}/boards/${board.id}`)).statusCode).toBe(403);
    const missing = await t.request(all.key, 'GET', `${API}/boards/${board.id}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    expect((await t.request(all.key, 'DELETE', `${API}/boards/${board.id}`)).statusCode).toBe(404);
    expect(events.take()).toEqual([]);
    // Other boards are untouched.
    expect((await t.request(all.key, 'GET', `${API}/boards/${survivor.id}`)).statusCode).toBe(200);
  });

  it('records board.created with the board, only for the external API', async () => {
    const { key } = await t.createKey({});
    const board = (await t.request(key, 'POST', `${API}/boards`, { name: ' Events ' })).json().data;
    expect(events.take()).toEqual([
      { type: 'board.created', boardId: board.id, data: { board: { id: board.id, name: 'Events' } } },
    ]);
    await t.services.boards.createBoard(OPERATOR, { name: 'From the CLI' });
    expect(events.take()).toEqual([]);
  });

  it('a board and its event commit together: a failing event store leaves no board and no grant', async () => {
    const { id, key } = await t.createKey({});
    const before = (await t.request(key, 'GET', `${API}/boards`)).json().data;
    events.failNext = true;
    const res = await t.request(key, 'POST', `${API}/boards`, { name: 'Never' });
    expect(res.statusCode).toBe(500);
    expect((await t.request(key, 'GET', `${API}/boards`)).json().data).toEqual(before);
    const boards = await t.db.database.kysely
      .selectFrom('boards')
      .select('id')
      .where('name', '=', 'Never')
      .execute();
    expect(boards).toEqual([]);
    const listed = await t.services.apiKeys.listKeys(OPERATOR);
    expect(listed.find((k) => k.id === id)?.grants).toHaveLength(1);
  });
});
