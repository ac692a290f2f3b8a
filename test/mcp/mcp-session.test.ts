import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/built-server.js';
import { DIALECTS } from '../support/database.js';
import { buildWebhookApp, type WebhookApp } from '../support/webhook-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { connect, listen, type McpSession, TRANSPORTS, type TransportKind } from './mcp-clients.js';

// The stdio transport runs the built CLI; building can take a while on a busy machine.
beforeAll(() => ensureBuilt(), 180_000);

const API = '/api/ext/v1';

interface Delivered {
  type: string;
  data: Record<string, unknown>;
}

describe.each(DIALECTS)('MCP agent session ($dialect)', ({ dialect, skip }) => {
  let t: WebhookApp;
  let receiver: WebhookReceiver;
  let baseUrl: string;

  // One session per transport, as an agent keeps one (a stdio session is a process of its own); each
  // test works on a board of its own.
  const agents = new Map<TransportKind, Promise<{ key: string; session: McpSession }>>();
  function agent(transport: TransportKind) {
    let started = agents.get(transport);
    if (!started) {
      started = t
        .createKey({})
        .then(async ({ key }) => ({ key, session: await connect(transport, baseUrl, key) }));
      agents.set(transport, started);
    }
    return started;
  }

  beforeAll(async () => {
    if (skip) return;
    receiver = await WebhookReceiver.start();
    t = await buildWebhookApp(dialect);
    baseUrl = await listen(t.app);
  });
  afterAll(async () => {
    const started = await Promise.allSettled(agents.values());
    for (const result of started) if (result.status === 'fulfilled') await result.value.session.close();
    await t?.close();
    await receiver?.close();
  });

  /** A board of `key`'s with lanes Todo, Doing, Done, one task in Todo, and a webhook. */
  async function setUp(key: string, name: string) {
    const boardId = await t.createBoard(key, name);
    const lanes: Record<string, string> = {};
    for (const lane of ['Todo', 'Doing', 'Done']) {
      const res = await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: lane });
      lanes[lane] = res.json().data.id;
    }
    const task = (
      await t.request(key, 'POST', `${API}/boards/${boardId}/tasks`, {
        title: 'Wire the MCP server',
        laneId: lanes.Todo,
      })
    ).json().data;
    const hookPath = `/hook-${name}`;
    await t.createWebhook(key, receiver.url(hookPath), ['*']);
    return { key, boardId, lanes, task, hookPath };
  }

  describe.skipIf(skip).each(TRANSPORTS)('over %s', (transport) => {
    it('finds a task by shortId, adds and ticks todos, comments and moves it to Done by lane name', async () => {
      const { key, session } = await agent(transport);
      const fx = await setUp(key, `session-${transport}`);

      const found = await session.call('find_tasks', { query: fx.task.shortId });
      expect(found.isError).toBe(false);
      expect(found.structured).toMatchObject({ total: 1, more: null });
      expect(found.structured.tasks).toEqual([
        expect.objectContaining({ id: fx.task.id, shortId: fx.task.shortId, lane: 'Todo' }),
      ]);
      expect(found.text).toContain(fx.task.shortId);

      const added = await session.call('add_todos', {
        task: fx.task.shortId,
        todos: [{ text: 'Schemas' }, { text: 'Transports' }, { text: 'Tests', iteration: 1 }],
      });
      expect(added.isError).toBe(false);
      expect(added.structured.todos).toHaveLength(3);

      const ticked = await session.call('update_todos', {
        task: fx.task.shortId,
        updates: ['Schemas', 'Transports', 'Tests'].map((text) => ({ todo: text, done: true })),
      });
      expect(ticked.isError).toBe(false);

      const commented = await session.call('add_comment', {
        task: `#${fx.task.shortId}`,
        body: 'All three done.',
      });
      expect(commented.isError).toBe(false);
      const commentId = (commented.structured.comment as { id: string }).id;

      const reacted = await session.call('react', {
        task: fx.task.shortId,
        comment: commentId,
        content: 'rocket',
      });
      expect(reacted.isError).toBe(false);

      const moved = await session.call('move_task', { task: fx.task.shortId, lane: 'done' });
      expect(moved.isError).toBe(false);
      expect(moved.text).toContain('"Done"');

      // What the board shows through REST.
      const base = `${API}/boards/${fx.boardId}/tasks/${fx.task.id}`;
      const task = (await t.request(fx.key, 'GET', base)).json().data;
      expect(task.laneId).toBe(fx.lanes.Done);
      const todos = (await t.request(fx.key, 'GET', `${base}/todos`)).json().data;
      expect(
        todos.map((x: { text: string; done: boolean; source: string }) => [x.text, x.done, x.source]),
      ).toEqual([
        ['Schemas', true, 'agent'],
        ['Transports', true, 'agent'],
        ['Tests', true, 'agent'],
      ]);
      const comments = (await t.request(fx.key, 'GET', `${base}/comments`)).json().data;
      // Stateless HTTP requests do not carry the client's name from `initialize`; stdio keeps it.
      const authorName = transport === 'stdio' ? 'test-agent' : 'Agent';
      expect(comments).toEqual([
        expect.objectContaining({
          body: 'All three done.',
          authorSource: 'agent',
          authorName,
          reactions: [{ content: 'rocket', count: 1 }],
        }),
      ]);

      // And what an integration sees: the webhooks of an external-API change.
      const expected = ['todo.created', 'todo.updated', 'comment.created', 'reaction.created', 'task.moved'];
      const delivered = (await receiver.waitFor(3 + 3 + 1 + 1 + 1, (r) => r.path === fx.hookPath)).map(
        (r) => JSON.parse(r.body) as Delivered,
      );
      expect(new Set(delivered.map((d) => d.type))).toEqual(new Set(expected));
      expect(delivered.find((d) => d.type === 'comment.created')?.data).toMatchObject({ source: 'agent' });
      expect(delivered.find((d) => d.type === 'reaction.created')?.data).toMatchObject({
        comment_id: commentId,
        content: 'rocket',
      });
      expect(delivered.find((d) => d.type === 'task.moved')?.data).toMatchObject({
        laneId: fx.lanes.Done,
        fromLaneId: fx.lanes.Todo,
      });
    });

    it('get_task returns todos, recent comments and watermarks in one call', async () => {
      const { key, session } = await agent(transport);
      const fx = await setUp(key, `detail-${transport}`);
      await session.call('add_todos', { task: fx.task.shortId, todos: [{ text: 'One' }] });
      for (const body of ['first', 'second', 'third']) {
        await session.call('add_comment', { task: fx.task.shortId, body });
      }
      const got = await session.call('get_task', { task: fx.task.shortId, comments: 2 });
      expect(got.isError).toBe(false);
      expect(got.structured).toMatchObject({
        task: { id: fx.task.id, lane: 'Todo' },
        todos: [expect.objectContaining({ text: 'One', done: false })],
        comments: [expect.objectContaining({ body: 'second' }), expect.objectContaining({ body: 'third' })],
        commentTotal: 3,
        watermarks: {},
      });
      expect(got.text).toContain('latest 2 of 3');
    });

    it('an unknown lane or a bad priority says what to do next', async () => {
      const { key, session } = await agent(transport);
      const fx = await setUp(key, `errors-${transport}`);
      const lane = await session.call('move_task', { task: fx.task.shortId, lane: 'Shipped' });
      expect(lane.isError).toBe(true);
      expect(lane.text).toContain('Valid lanes: "Todo", "Doing", "Done"');
      const priority = await session.call('update_task', { task: fx.task.shortId, priority: 9 });
      expect(priority.isError).toBe(true);
      expect(priority.structured).toMatchObject({ error: { code: 'validation_error' } });
      expect(priority.text).toContain('0 none, 1 low, 2 medium, 3 high, 4 urgent');
      const missing = await session.call('get_task', { task: 'zzzzzz' });
      expect(missing.structured).toMatchObject({ error: { code: 'not_found' } });
    });
  });
});
