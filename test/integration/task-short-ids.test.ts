import { CompiledQuery } from 'kysely';
import { beforeAll, expect, it, vi } from 'vitest';
import { taskListQuery } from '../../src/db/repositories/tasks.js';
import { newId } from '../../src/lib/ids.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { type BoardFixture, createBoard, createTask, expectError, RecordingEvents } from './task-fixtures.js';

// Short ids come from a queue the tests fill, so collisions can be forced; an empty queue draws real ones.
const shortIds = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('../../src/lib/ids.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/lib/ids.js')>();
  return { ...original, newShortId: () => shortIds.queue.shift() ?? original.newShortId() };
});

describeEachDialect('task short ids', (dialect) => {
  let fx: BoardFixture;
  const events = new RecordingEvents();

  const t = useTestApp(dialect, { events });
  beforeAll(async () => {
    fx = await createBoard(t, ['Todo']);
  });

  it('draws another short id when the first one is taken', async () => {
    const laneId = fx.laneIds[0] as string;
    shortIds.queue.push('k7zq0001');
    const first = await createTask(t, fx, { laneId, title: 'first' });
    expect(first.shortId).toBe('k7zq0001');
    shortIds.queue.push('k7zq0001', 'k7zq0001', 'k7zq0002');
    const second = await createTask(t, fx, { laneId, title: 'second' });
    expect(second.shortId).toBe('k7zq0002');
    expect(second.position).toBe(1);
    expect(shortIds.queue).toEqual([]);

    const found = await t.request(fx.key, 'GET', `${fx.url}/tasks?shortIdPrefix=K7ZQ000`);
    expect(found.json().data.map((task: { title: string }) => task.title)).toEqual(['first', 'second']);
  });

  it('fails cleanly, creating nothing, when no free short id is found', async () => {
    const laneId = fx.laneIds[0] as string;
    events.take();
    shortIds.queue.push(...Array.from({ length: 8 }, () => 'k7zq0001'));
    const res = await t.request(fx.key, 'POST', `${fx.url}/tasks`, { title: 'unlucky', laneId });
    expectError(res, 500, 'internal_error');
    expect(res.body).not.toMatch(/short|insert|select/i);
    expect(events.take()).toEqual([]);
    const list = await t.request(fx.key, 'GET', `${fx.url}/tasks`);
    expect(list.json().data).toHaveLength(2);
    shortIds.queue.length = 0;
  });

  it('answers shortIdPrefix from the short_id index, not a scan of the board', async () => {
    // A large board makes its board index the worse choice, as it is in production.
    const laneId = fx.laneIds[0] as string;
    const now = new Date().toISOString();
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: newId('task'),
      board_id: fx.boardId,
      lane_id: laneId,
      short_id: `zz${i.toString(36).padStart(6, '0')}`,
      title: `bulk ${i}`,
      description: '',
      priority: 0,
      tags: '[]',
      archived: 0,
      rank: i + 2,
      created_at: now,
      updated_at: now,
      last_turn_at: null,
    }));
    const db = t.db.database.kysely;
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('tasks')
        .values(rows.slice(i, i + 500))
        .execute();
    await db.executeQuery(CompiledQuery.raw('analyze'));

    const compiled = taskListQuery(db, fx.boardId, {
      includeArchived: false,
      shortIdPrefix: 'zz00001',
    }).compile();
    const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
    const plan = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${explain}${compiled.sql}`, [...compiled.parameters]),
    );
    const text = plan.rows.map((row) => Object.values(row).join(' ')).join('\n');
    expect(text).toMatch(
      dialect === 'sqlite'
        ? /tasks USING INDEX sqlite_autoindex_tasks_\d+ \(short_id>\? AND short_id<\?\)/
        : /Index Cond: \(\(short_id >= .*short_id < /s,
    );

    const res = await t.request(fx.key, 'GET', `${fx.url}/tasks?shortIdPrefix=ZZ00001`);
    expect(res.json().data).toHaveLength(36);
  });
});
