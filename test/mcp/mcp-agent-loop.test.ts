import { expect, it } from 'vitest';
import { TURN_CHARS } from '../../src/mcp/tools/task-reads.js';
import type { McpSession } from './mcp-clients.js';
import { API, agentWithKey, boardWithLanes, createTask, describeOverTransports } from './mcp-support.js';

describeOverTransports('MCP: what an agent reads and hears', (mcp, transport) => {
  /** An agent with a key, a board with lanes Todo, Doing, Done and one task, and an MCP session. */
  async function setUp(name: string) {
    const { agent, key } = await agentWithKey(mcp.t, `${name} agent`, `${name} key`);
    const { boardId, lanes } = await boardWithLanes(mcp.t, key, name, ['Todo', 'Doing', 'Done']);
    const task = await createTask(mcp.t, key, boardId, {
      title: 'Rotate the signing keys',
      laneId: lanes.Todo,
      description: 'Ask Google about the certificate chain.',
    });
    const session = await mcp.connect(transport, key);
    return {
      agent,
      key,
      boardId,
      lanes,
      task,
      session,
      taskUrl: `${API}/boards/${boardId}/tasks/${task.id}`,
    };
  }

  it('find_tasks finds words in descriptions, comments and turns, with the matching snippet', async () => {
    const fx = await setUp(`Search ${transport}`);
    const comment = await mcp.t.request(fx.key, 'POST', `${fx.taskUrl}/comments`, {
      body: 'The flamingo deploy failed twice.',
      authorName: 'Claude',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await mcp.t.request(fx.key, 'POST', `${fx.taskUrl}/turns`, {
      turns: [
        {
          source: 'claude',
          sourceId: 'u1',
          role: 'user',
          content: 'Where is the zeppelin config?',
          capturedAt: '2026-11-27T10:00:00Z',
        },
      ],
    });
    for (const [word, kind] of [
      ['Google', null],
      ['flamingo', 'comment'],
      ['zeppelin', 'turn'],
    ] as const) {
      const found = await session(fx).call('find_tasks', { query: word, board: fx.boardId });
      expect(found.isError, found.text).toBe(false);
      expect(
        (found.structured.tasks as Array<{ id: string }>).map((x) => x.id),
        `${word}: ${found.text}`,
      ).toEqual([fx.task.id]);
      if (kind) expect(found.text).toContain(`${kind}: `);
    }
    const none = await session(fx).call('find_tasks', { query: 'nonexistentword', board: fx.boardId });
    expect(none.text).toBe('No matches.');
    // A shortId prefix still finds the task.
    const byId = await session(fx).call('find_tasks', { query: fx.task.shortId.slice(0, 5) });
    expect((byId.structured.tasks as Array<{ id: string }>).map((x) => x.id)).toContain(fx.task.id);
  });

  it('get_task returns the latest turns per source, each cut to the stated size', async () => {
    const fx = await setUp(`Turns ${transport}`);
    const long = 'x'.repeat(TURN_CHARS + 500);
    const turns = Array.from({ length: 5 }, (_, i) => ({
      source: 'claude',
      sourceId: `c${i}`,
      role: i % 2 ? 'assistant' : 'user',
      content: i === 4 ? long : `claude turn ${i}`,
      capturedAt: `2026-11-27T10:00:0${i}Z`,
    }));
    turns.push({
      source: 'copilot',
      sourceId: 'p1',
      role: 'user',
      content: 'copilot turn',
      capturedAt: '2026-11-27T09:00:00Z',
    });
    await mcp.t.request(fx.key, 'POST', `${fx.taskUrl}/turns`, { turns });
    const detail = await session(fx).call('get_task', { task: fx.task.shortId, turns: 2 });
    expect(detail.isError, detail.text).toBe(false);
    const listed = detail.structured.turns as Array<{ source: string; content: string }>;
    expect(listed.map((x) => x.source)).toEqual(['claude', 'claude', 'copilot']);
    expect(listed[0]?.content).toBe('claude turn 3');
    expect(listed[1]?.content).toBe(`${'x'.repeat(TURN_CHARS)}… (500 more characters)`);
    expect(detail.text).toContain(`Turns (latest 2 per source, each cut to ${TURN_CHARS} characters):`);
    const without = await session(fx).call('get_task', { task: fx.task.shortId, turns: 0 });
    expect(without.structured.turns).toEqual([]);
  });

  it('says what is true of an ambiguous lane and of a move to where the task already is', async () => {
    const fx = await setUp(`Lanes ${transport}`);
    const ambiguous = await session(fx).call('move_task', { task: fx.task.shortId, lane: 'do' });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain(
      `Lane "do" of board "Lanes ${transport}" is ambiguous: it matches "Todo", "Doing", "Done".`,
    );
    const stay = await session(fx).call('move_task', { task: fx.task.shortId, lane: 'Todo' });
    expect(stay.isError).toBe(false);
    expect(stay.text).toBe(`${fx.task.shortId} was already in "Todo" at position 0: nothing changed.`);
    const moved = await session(fx).call('move_task', { task: fx.task.shortId, lane: 'doing' });
    expect(moved.text).toBe(`Moved ${fx.task.shortId} from "Todo" to "Doing" at position 0.`);
  });

  it('update_todos reorders the todos and ticks one in the same call', async () => {
    const fx = await setUp(`Todos ${transport}`);
    const added = await session(fx).call('add_todos', {
      task: fx.task.shortId,
      todos: [{ text: 'a' }, { text: 'b' }],
    });
    const ids = (added.structured.todos as Array<{ id: string }>).map((x) => x.id);
    const done = await session(fx).call('update_todos', {
      task: fx.task.shortId,
      updates: [{ todo: 'a', done: true }],
      orderedIds: [...ids].reverse(),
    });
    expect(done.isError, done.text).toBe(false);
    expect(
      (done.structured.todos as Array<{ text: string; done: boolean }>).map((x) => [x.text, x.done]),
    ).toEqual([
      ['b', false],
      ['a', true],
    ]);
    const empty = await session(fx).call('update_todos', { task: fx.task.shortId });
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain('Pass `updates`, `orderedIds` or both.');
  });

  it('wait_for_activity hears a web UI change and, with mine, only what concerns the agent', async () => {
    const fx = await setUp(`Wait ${transport}`);
    const start = await session(fx).call('wait_for_activity', { board: fx.boardId, waitSeconds: 0 });
    expect(start.isError, start.text).toBe(false);
    const cursor = start.structured.cursor as string;
    expect(cursor).not.toBe('');
    const person = { kind: 'user', origin: 'ui', userId: 'usr_x', name: 'Grace', role: 'owner' } as const;
    const other = await mcp.t.services.tasks.createTask(person, fx.boardId, {
      title: 'Not yours',
      laneId: fx.lanes.Todo as string,
    });
    const heard = await session(fx).call('wait_for_activity', {
      board: fx.boardId,
      after: cursor,
      waitSeconds: 20,
    });
    expect(heard.isError, heard.text).toBe(false);
    const events = heard.structured.events as Array<{ type: string; data: { task_id?: string } }>;
    expect(events.map((e) => [e.type, e.data.task_id])).toEqual([['task.created', other.id]]);
    expect(heard.text).toContain('task.created');

    // mine: the other task's change is skipped; the assignment of the agent (made in the UI) is heard.
    const next = heard.structured.cursor as string;
    await mcp.t.services.tasks.updateTask(person, fx.boardId, other.id, { title: 'Still not yours' });
    await mcp.t.services.tasks.assignees.assign(person, fx.boardId, fx.task.id, fx.agent.id);
    const mine = await session(fx).call('wait_for_activity', { after: next, mine: true, waitSeconds: 20 });
    expect(mine.isError, mine.text).toBe(false);
    const mineEvents = mine.structured.events as Array<{ type: string; data: { task_id?: string } }>;
    expect(mineEvents.map((e) => [e.type, e.data.task_id])).toEqual([['task.assigned', fx.task.id]]);

    const quiet = await session(fx).call('wait_for_activity', {
      after: mine.structured.cursor as string,
      waitSeconds: 1,
    });
    expect(quiet.structured.events).toEqual([]);
    expect(quiet.text).toContain('Nothing new.');
    const bad = await session(fx).call('wait_for_activity', { after: 'not-a-cursor', waitSeconds: 0 });
    expect(bad.isError).toBe(true);
  });

  function session(fx: { session: McpSession }): McpSession {
    return fx.session;
  }
});
