import { expect, it } from 'vitest';
import { EVENT_PAYLOADS } from '../../src/schemas/events.js';
import { bodyAjv } from '../../src/schemas/validation.js';
import { openSecondConnection } from '../support/database.js';
import { describeEachDialect } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { type Browser, OPERATOR, useUiTestApp } from '../ui/ui-support.js';
import { created, externalApi } from './member-fixtures.js';

interface Payload {
  id: string;
  type: keyof typeof EVENT_PAYLOADS;
  actor?: unknown;
  data: Record<string, unknown>;
}

describeEachDialect('attribution: an agent key acts as the agent', (dialect) => {
  const t = useUiTestApp(dialect);
  const ext = externalApi(t);

  /** The stored payloads of the events with this data field value, checked against the document. */
  async function payloadsWhere(field: string, value: string): Promise<Payload[]> {
    const rows = await t.db.database.kysely
      .selectFrom('webhook_events')
      .select('payload')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const payloads = rows.map((r) => JSON.parse(r.payload) as Payload).filter((p) => p.data[field] === value);
    for (const payload of payloads) {
      expect(bodyAjv.validate(EVENT_PAYLOADS[payload.type], payload), JSON.stringify(payload)).toBe(true);
    }
    return payloads;
  }

  /** A key of the given holder with a webhook that receives everything, and a board with a lane. */
  async function setUp(owner: Browser, keyUrl: string) {
    const key = await created(owner, keyUrl, { name: 'Runner key', allBoards: true, grants: [] });
    await created(owner, '/api/ui/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['*'],
      apiKeyId: key.id,
    });
    const boardId = (await ext(key.key, 'POST', '/boards', { name: 'Attributed' })).json().data.id;
    const laneId = (await ext(key.key, 'POST', `/boards/${boardId}/lanes`, { name: 'Todo' })).json().data.id;
    return { key, boardId, laneId };
  }

  it("an agent's key: activities, events and comments are the agent's", async () => {
    const { browser: owner } = await t.person('owner');
    const agent = await created(owner, '/api/ui/agents', { name: 'Claude' });
    const { key, boardId, laneId } = await setUp(owner, `/api/ui/agents/${agent.id}/keys`);
    const task = (await ext(key.key, 'POST', `/boards/${boardId}/tasks`, { title: 'T', laneId })).json().data;
    const comments = `/boards/${boardId}/tasks/${task.id}/comments`;
    const byDefault = await ext(key.key, 'POST', comments, { body: 'on it', authorName: 'Claude' });
    expect(byDefault.json().data.source).toBe('agent');
    const asked = await ext(key.key, 'POST', comments, { body: 'x', authorName: 'C', source: 'api' });
    expect(asked.json().data.source).toBe('api');
    const todo = await ext(key.key, 'POST', `/boards/${boardId}/tasks/${task.id}/todos`, {
      text: 'Do',
      iteration: 0,
    });
    expect(todo.statusCode, todo.body).toBe(201);
    expect(todo.json().data.source).toBe('agent');
    await ext(key.key, 'POST', `/boards/${boardId}/tasks/${task.id}/move`, { laneId }, true);

    const payloads = await payloadsWhere('task_id', task.id);
    expect(payloads.map((p) => p.type)).toEqual([
      'task.created',
      'comment.created',
      'comment.created',
      'todo.created',
    ]);
    for (const payload of payloads) {
      expect(payload.actor).toEqual({ type: 'agent', id: agent.id, name: 'Claude' });
    }
    const activities = await t.services.activities.listForTask(OPERATOR, boardId, task.id);
    expect(activities.data.map((a) => [a.actor, a.origin])).toContainEqual([
      { kind: 'agent', id: agent.id, name: 'Claude' },
      'api',
    ]);
    for (const activity of activities.data) {
      expect(activity.actor).toEqual({ kind: 'agent', id: agent.id, name: 'Claude' });
    }

    // A rename applies to the key's next request (the cached actor is forgotten).
    await owner.request('PATCH', `/api/ui/agents/${agent.id}`, { name: 'Claude Code' });
    await ext(key.key, 'POST', comments, { body: 'renamed', authorName: 'C' });
    const latest = (await payloadsWhere('task_id', task.id)).at(-1);
    expect(latest?.actor).toEqual({ type: 'agent', id: agent.id, name: 'Claude Code' });

    // Through MCP the origin is mcp and the actor still the agent.
    const mcpTask = await ext(key.key, 'POST', `/boards/${boardId}/tasks`, { title: 'M', laneId }, true);
    const mcpActivities = await t.services.activities.listForTask(OPERATOR, boardId, mcpTask.json().data.id);
    expect(mcpActivities.data.map((a) => [a.actor.kind, a.actor.id, a.origin])).toEqual([
      ['agent', agent.id, 'mcp'],
    ]);
  });

  it("a person's key carries the person; a CLI key only itself", async () => {
    const { id: personId, browser: admin } = await t.person('admin', 'Grace');
    const { key, boardId, laneId } = await setUp(admin, '/api/ui/keys');
    const first = (await ext(key.key, 'POST', `/boards/${boardId}/tasks`, { title: 'P', laneId })).json()
      .data;
    const [created1] = await payloadsWhere('task_id', first.id);
    expect(created1?.actor).toEqual({
      type: 'key',
      id: key.id,
      name: 'Runner key',
      person: { id: personId, name: 'Grace' },
    });
    const comment = await ext(key.key, 'POST', `/boards/${boardId}/tasks/${first.id}/comments`, {
      body: 'b',
      authorName: 'G',
    });
    expect(comment.json().data.source).toBe('api');
    const activities = await t.services.activities.listForTask(OPERATOR, boardId, first.id);
    expect(activities.data.at(-1)?.actor).toEqual({ kind: 'api_key', id: key.id, name: 'Runner key' });

    // The person renames themself: the key's next event carries the new name.
    const renamed = await admin.request('PATCH', '/api/ui/me', { name: 'Grace H.' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await waitUntil('the renamed person on the key', async () => {
      const actor = await t.services.apiKeys.authenticate(key.key);
      return actor?.kind === 'api_key' && actor.person?.name === 'Grace H.' ? true : undefined;
    });
    const second = (await ext(key.key, 'POST', `/boards/${boardId}/tasks`, { title: 'Q', laneId })).json()
      .data;
    const [created2] = await payloadsWhere('task_id', second.id);
    expect(created2?.actor).toMatchObject({ person: { id: personId, name: 'Grace H.' } });

    const cliKey = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'CLI key',
      allBoards: true,
      grants: [],
    });
    const third = (await ext(cliKey.key, 'POST', `/boards/${boardId}/tasks`, { title: 'C', laneId })).json()
      .data;
    const [created3] = await payloadsWhere('task_id', third.id);
    expect(created3?.actor).toEqual({ type: 'key', id: cliKey.id, name: 'CLI key' });
  });

  it('an agent renamed by another process reaches the cached actor (key-change stamp on agents)', async () => {
    const agent = await t.services.agents.createAgent(OPERATOR, { name: 'Before' });
    const key = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'k',
      allBoards: true,
      grants: [],
      agentId: agent.id,
    });
    const nameOf = async () => {
      const actor = await t.services.apiKeys.authenticate(key.key);
      return actor?.kind === 'api_key' ? actor.agent?.name : undefined;
    };
    expect(await nameOf()).toBe('Before');
    // Cached once the lookup's own writes (last use) have been heard of: the rename must then reach it.
    await waitUntil('the key cached', async () => {
      await nameOf();
      return t.services.apiKeys.cachedAuthentication(key.key) ? true : undefined;
    });
    const other = openSecondConnection(t.db);
    try {
      await other.kysely.updateTable('agents').set({ name: 'After' }).where('id', '=', agent.id).execute();
    } finally {
      await other.close();
    }
    await waitUntil('the renamed agent on the cached key', async () =>
      (await nameOf()) === 'After' ? true : undefined,
    );
  });

  it("a ping's actor is the webhook's own key", async () => {
    const { browser: owner } = await t.person('owner');
    const agent = await created(owner, '/api/ui/agents', { name: 'Pinger' });
    const key = await created(owner, `/api/ui/agents/${agent.id}/keys`, {
      name: 'k',
      allBoards: true,
      grants: [],
    });
    const hook = await created(owner, '/api/ui/webhooks', {
      url: 'http://127.0.0.1:9/ping',
      events: ['task.created'],
      apiKeyId: key.id,
    });
    const ping = await owner.request('POST', `/api/ui/webhooks/${hook.id}/ping`);
    expect(ping.statusCode, ping.body).toBe(202);
    const [payload] = await payloadsWhere('webhook_id', hook.id);
    expect(payload?.actor).toEqual({ type: 'agent', id: agent.id, name: 'Pinger' });
  });

  it('web UI changes record the person and fire no webhooks', async () => {
    const { id: personId, browser: owner } = await t.person('owner', 'Ada');
    const { boardId, laneId } = await setUp(owner, '/api/ui/keys');
    const res = await owner.request('POST', `/api/ui/boards/${boardId}/tasks`, { title: 'UI', laneId });
    expect(res.statusCode, res.body).toBe(201);
    expect(await payloadsWhere('task_id', res.json().data.id)).toEqual([]);
    const activities = await t.services.activities.listForTask(OPERATOR, boardId, res.json().data.id);
    expect(activities.data.map((a) => [a.actor, a.origin])).toEqual([
      [{ kind: 'user', id: personId, name: 'Ada' }, 'ui'],
    ]);
  });
});
