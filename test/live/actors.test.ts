import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, listen, TRANSPORTS } from '../mcp/mcp-clients.js';
import { describeEachDialect } from '../support/dialects.js';
import { buildUiTestApp, OPERATOR, type UiTestApp } from '../ui/ui-support.js';

interface ActivityView {
  type: string;
  taskId: string | null;
  actor: { kind: string; id: string | null; name: string };
  origin: string;
}

/**
 * Every entry point builds its own actor and the activity records it: the external API a key (origin
 * `api`), both MCP transports the same key with origin `mcp`, the web UI the signed-in person. Each is
 * reached through its real door; nothing here builds an actor by hand.
 */
describeEachDialect('actors per entry point', (dialect) => {
  let t: UiTestApp;
  let baseUrl: string;
  let key: { id: string; key: string };
  let person: Awaited<ReturnType<UiTestApp['person']>>;
  let boardId: string;
  let laneId: string;

  beforeAll(async () => {
    t = await buildUiTestApp(dialect);
    baseUrl = await listen(t.app);
    const created = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'Builder',
      allBoards: true,
      grants: [],
    });
    key = { id: created.id, key: created.key };
    person = await t.person('member', 'Ada Lovelace');
    const board = await person.browser.request('POST', '/api/ui/boards', { name: 'Actors' });
    boardId = board.json().data.id;
    const lane = await person.browser.request('POST', `/api/ui/boards/${boardId}/lanes`, { name: 'Todo' });
    laneId = lane.json().data.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `/api/ext/v1${url}`,
      headers: { authorization: `Bearer ${key.key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  async function taskHistory(taskId: string): Promise<ActivityView[]> {
    const response = await person.browser.request(
      'GET',
      `/api/ui/boards/${boardId}/tasks/${taskId}/activities`,
    );
    expect(response.statusCode).toBe(200);
    return (response.json().data as ActivityView[]).reverse();
  }

  async function card(taskId: string): Promise<{ agentActive: boolean }> {
    const view = await person.browser.request('GET', `/api/ui/boards/${boardId}/view`);
    return (view.json().data.tasks as Array<{ id: string; agentActive: boolean }>).find(
      (c) => c.id === taskId,
    ) as {
      agentActive: boolean;
    };
  }

  it('the web UI records the person (origin ui), the external API the key (origin api)', async () => {
    const created = await person.browser.request('POST', `/api/ui/boards/${boardId}/tasks`, {
      title: 'From the board',
      laneId,
    });
    expect(created.statusCode).toBe(201);
    const taskId = created.json().data.id as string;
    const updated = await api('PATCH', `/boards/${boardId}/tasks/${taskId}`, { priority: 2 });
    expect(updated.statusCode).toBe(200);
    const comment = await api('POST', `/boards/${boardId}/tasks/${taskId}/comments`, {
      body: 'from CI',
      authorName: 'CI',
    });
    expect(comment.json().data.authorSource).toBe('api');

    const history = await taskHistory(taskId);
    expect(history.map((a) => [a.type, a.actor, a.origin])).toEqual([
      ['task.created', { kind: 'user', id: person.id, name: 'Ada Lovelace' }, 'ui'],
      ['task.updated', { kind: 'api_key', id: key.id, name: 'Builder' }, 'api'],
      ['comment.created', { kind: 'api_key', id: key.id, name: 'Builder' }, 'api'],
    ]);
    // Neither a person's nor a plain API change is an agent at work.
    expect((await card(taskId)).agentActive).toBe(false);
  });

  it.each(TRANSPORTS)('MCP over %s records the key with origin mcp, as an agent', async (transport) => {
    const created = await api('POST', `/boards/${boardId}/tasks`, {
      title: `Agent work (${transport})`,
      laneId,
    });
    const task = created.json().data as { id: string; shortId: string };
    const session = await connect(transport, baseUrl, key.key);
    try {
      const update = await session.call('update_task', { task: task.shortId, priority: 3 });
      expect(update.isError, update.text).toBe(false);
      const comment = await session.call('add_comment', { task: task.shortId, body: 'On it.' });
      expect(comment.isError, comment.text).toBe(false);
    } finally {
      await session.close();
    }

    const history = await taskHistory(task.id);
    expect(history.map((a) => [a.type, a.actor.kind, a.actor.id, a.origin])).toEqual([
      ['task.created', 'api_key', key.id, 'api'],
      ['task.updated', 'api_key', key.id, 'mcp'],
      ['comment.created', 'api_key', key.id, 'mcp'],
    ]);
    const comments = await api('GET', `/boards/${boardId}/tasks/${task.id}/comments`);
    expect(comments.json().data.map((c: { authorSource: string }) => c.authorSource)).toEqual(['agent']);
    // The board shows the agent at work on it.
    expect((await card(task.id)).agentActive).toBe(true);
  });

  it('the origin header grants nothing the key does not hold', async () => {
    const readOnly = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'Reader',
      allBoards: false,
      grants: [{ boardId, permission: 'read' }],
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/ext/v1/boards/${boardId}/tasks`,
      headers: { authorization: `Bearer ${readOnly.key}`, 'x-laneboard-origin': 'mcp' },
      payload: { title: 'Nope', laneId },
    });
    expect(refused.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/ext/v1/boards`,
      headers: { 'x-laneboard-origin': 'mcp' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
