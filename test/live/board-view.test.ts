import { randomBytes } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { readBoardView } from '../../src/db/repositories/board-view.js';
import { type Actor, CLI_OPERATOR, type KeyActor, throughMcp } from '../../src/domain/actor.js';
import { ManualClock } from '../support/clock.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { loadFactor } from '../support/machine-load.js';
import type { TestApp } from '../support/test-app.js';

const PERSON: Actor = { kind: 'user', origin: 'ui', userId: 'usr_ada', name: 'Ada', role: 'member' };

/** The actor the external API builds for a key (POST /mcp and `laneboard mcp` add origin `mcp`). */
async function keyActor(t: TestApp, name: string, access: 'all' | Record<string, 'read' | 'edit'>) {
  const { key } = await t.createKey(access, name);
  return (await t.services.apiKeys.authenticate(key)) as KeyActor;
}

/** Counts the statements a Kysely instance runs. */
function countingPlugin(): KyselyPlugin & { count: number } {
  const plugin = {
    count: 0,
    transformQuery(args: Parameters<KyselyPlugin['transformQuery']>[0]) {
      plugin.count += 1;
      return args.node;
    },
    transformResult: async (args: Parameters<KyselyPlugin['transformResult']>[0]) => args.result,
  };
  return plugin;
}

describeEachDialect('board view', (dialect) => {
  const clock = new ManualClock(Date.now());
  const t = useTestApp(dialect, { clock });

  it('shows lanes in order and cards with todo progress, comment count and the agent mark', async () => {
    const s = t.services;
    const API_KEY = await keyActor(t, 'CI', 'all');
    // The same kind of key as MCP's transports present it: its changes are an agent's.
    const AGENT = throughMcp(await keyActor(t, 'Claude', 'all'));
    const board = await s.boards.createBoard(PERSON, { name: 'Launch' });
    const doing = await s.lanes.createLane(PERSON, board.id, { name: 'Doing' });
    const todo = await s.lanes.createLane(PERSON, board.id, { name: 'Todo' });
    await s.lanes.updateLane(PERSON, board.id, todo.id, { position: 0 });
    await s.tasks.createTask(PERSON, board.id, { title: 'Plain', laneId: todo.id });
    const busy = await s.tasks.createTask(API_KEY, board.id, {
      title: 'Busy',
      laneId: todo.id,
      priority: 2,
      tags: ['ui'],
    });
    const byAgent = await s.tasks.createTask(PERSON, board.id, { title: 'Agent', laneId: doing.id });
    const old = await s.tasks.createTask(PERSON, board.id, { title: 'Old', laneId: doing.id });
    const first = await s.todos.createTodo(PERSON, board.id, busy.id, { text: 'one', iteration: 1 });
    await s.todos.createTodo(API_KEY, board.id, busy.id, { text: 'two', iteration: 1 });
    await s.todos.createTodo(PERSON, board.id, busy.id, { text: 'three', iteration: 1 });
    await s.todos.updateTodo(PERSON, board.id, busy.id, first.id, { done: true });
    await s.comments.createComment(API_KEY, board.id, busy.id, { body: 'hi', authorName: 'CI' });
    await s.comments.createComment(PERSON, board.id, busy.id, { body: 'hey', authorName: 'Ada' });
    const bytes = async function* () {
      yield Buffer.from('hello');
    };
    await s.assets.createAsset(API_KEY, board.id, busy.id, {
      filename: 'notes.txt',
      contentType: 'text/plain',
      content: await s.assets.stage(bytes()),
    });
    const claude = await s.agents.createAgent(CLI_OPERATOR, { name: 'Claude' });
    await s.tasks.assignees.assign(CLI_OPERATOR, board.id, busy.id, claude.id);
    await s.tasks.updateTask(AGENT, board.id, byAgent.id, { priority: 1 });
    // Agent work more than 10 minutes ago does not count.
    await s.comments.createComment(AGENT, board.id, old.id, { body: 'done', authorName: 'Claude' });
    clock.advance(61 * 60 * 1000);
    await s.tasks.updateTask(AGENT, board.id, byAgent.id, { priority: 3 });
    await s.tasks.updateTask(PERSON, board.id, old.id, { archived: true });

    const view = await s.boardView.getView(PERSON, board.id);
    expect(view.board).toMatchObject({ id: board.id, name: 'Launch' });
    expect(view.lanes).toEqual([
      { id: todo.id, name: 'Todo', position: 0, taskCount: 2 },
      { id: doing.id, name: 'Doing', position: 1, taskCount: 1 },
    ]);
    const cards = new Map(view.tasks.map((card) => [card.title, card]));
    expect([...cards.keys()].sort()).toEqual(['Agent', 'Busy', 'Plain']);
    expect(cards.get('Busy')).toEqual({
      id: busy.id,
      shortId: busy.shortId,
      title: 'Busy',
      laneId: todo.id,
      position: 1,
      priority: 2,
      tags: ['ui'],
      archived: false,
      todos: { done: 1, total: 3 },
      commentCount: 2,
      assetCount: 1,
      assignees: [{ id: claude.id, type: 'agent', name: 'Claude' }],
      agentActive: false,
      atWork: [],
      updatedAt: expect.any(String),
    });
    expect(cards.get('Plain')).toMatchObject({
      position: 0,
      todos: { done: 0, total: 0 },
      commentCount: 0,
      assignees: [],
    });
    expect(cards.get('Agent')?.agentActive).toBe(true);
    const latest = await s.activities.listForBoard(PERSON, board.id, { limit: 1 });
    expect(view.activityId).toBe(latest.data[0]?.id);

    const withArchived = await s.boardView.getView(PERSON, board.id, { archived: true });
    expect(withArchived.tasks.find((card) => card.id === old.id)).toMatchObject({
      archived: true,
      position: null,
      commentCount: 1,
      agentActive: false,
    });
    expect(withArchived.lanes.find((lane) => lane.id === doing.id)?.taskCount).toBe(1);
  });

  it('refuses unknown boards and keys without a grant', async () => {
    await expect(t.services.boardView.getView(PERSON, 'brd_nope')).rejects.toMatchObject({
      code: 'not_found',
    });
    const board = await t.services.boards.createBoard(PERSON, { name: 'Private' });
    const other = await t.services.boards.createBoard(PERSON, { name: 'Other' });
    const stranger = await keyActor(t, 'Stranger', { [other.id]: 'edit' });
    await expect(t.services.boardView.getView(stranger, board.id)).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('reads a board of 4 000 tasks in 8 lanes in a fixed number of statements, under 300 ms', async () => {
    const board = await t.services.boards.createBoard(CLI_OPERATOR, { name: 'Big' });
    const laneIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      laneIds.push((await t.services.lanes.createLane(CLI_OPERATOR, board.id, { name: `L${i}` })).id);
    }
    await seedTasks(t, board.id, laneIds, 4000);

    const counter = countingPlugin();
    const db = t.db.database.kysely.withPlugin(counter);
    const rows = await readBoardView(db, {
      boardId: board.id,
      includeArchived: false,
      agentSince: new Date(clock.now() - 3_600_000).toISOString(),
    });
    expect(rows?.tasks).toHaveLength(4000);
    expect(counter.count).toBe(9);

    const timings: number[] = [];
    let view = await t.services.boardView.getView(PERSON, board.id);
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      view = await t.services.boardView.getView(PERSON, board.id);
      timings.push(performance.now() - started);
    }
    expect(view.tasks).toHaveLength(4000);
    expect(view.lanes.map((lane) => lane.taskCount)).toEqual(Array(8).fill(500));
    const withTodos = view.tasks.filter((card) => card.todos.total > 0);
    expect(withTodos).toHaveLength(1000);
    expect(withTodos.every((card) => card.todos.done === 1 && card.todos.total === 2)).toBe(true);
    expect(view.tasks.filter((card) => card.commentCount === 1)).toHaveLength(2000);
    // The best of three runs: the bound is the server's, not the shared test machine's worst moment; on a
    // machine busier than its cores (CI shares two) it is scaled by the load, as a run there is slower.
    expect(Math.min(...timings)).toBeLessThan(300 * loadFactor());
  }, 60_000);
});

/** Inserts tasks, todos and comments in bulk (through SQL: thousands of service calls would be slow). */
async function seedTasks(t: TestApp, boardId: string, laneIds: string[], count: number): Promise<void> {
  const db = t.db.database.kysely;
  const now = new Date().toISOString();
  const prefix = randomBytes(3).toString('hex');
  const tasks = Array.from({ length: count }, (_, i) => ({
    id: `tsk_${prefix}_${i}`,
    board_id: boardId,
    lane_id: laneIds[i % laneIds.length] as string,
    short_id: `B${prefix}-${i}`,
    title: `Task ${i}`,
    description: '',
    priority: i % 4,
    tags: JSON.stringify(i % 3 === 0 ? ['backend'] : []),
    archived: 0,
    rank: Math.floor(i / laneIds.length),
    created_at: now,
    updated_at: now,
    last_turn_at: null,
  }));
  for (let i = 0; i < tasks.length; i += 500) {
    await db
      .insertInto('tasks')
      .values(tasks.slice(i, i + 500))
      .execute();
  }
  const todos = tasks.slice(0, count / 4).flatMap((task, i) =>
    [0, 1].map((n) => ({
      id: `tdo_${prefix}_${i}_${n}`,
      task_id: task.id,
      board_id: boardId,
      text: 'step',
      iteration: 1,
      done: n === 0 ? 1 : 0,
      sort_order: n,
      source: 'api' as const,
      created_at: now,
      updated_at: now,
    })),
  );
  for (let i = 0; i < todos.length; i += 500) {
    await db
      .insertInto('todos')
      .values(todos.slice(i, i + 500))
      .execute();
  }
  const comments = tasks.slice(0, count / 2).map((task, i) => ({
    id: `cmt_${prefix}_${i}`,
    task_id: task.id,
    board_id: boardId,
    body: 'note',
    author_name: 'CI',
    author_source: 'api' as const,
    created_at: now,
  }));
  for (let i = 0; i < comments.length; i += 500) {
    await db
      .insertInto('comments')
      .values(comments.slice(i, i + 500))
      .execute();
  }
}
