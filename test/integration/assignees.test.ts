import { expect, it } from 'vitest';
import { EVENT_PAYLOADS } from '../../src/schemas/events.js';
import { bodyAjv } from '../../src/schemas/validation.js';
import { expectError } from '../support/api.js';
import { describeEachDialect } from '../support/dialects.js';
import { OPERATOR, useUiTestApp } from '../ui/ui-support.js';
import { externalApi } from './member-fixtures.js';

describeEachDialect('task assignees', (dialect) => {
  const t = useUiTestApp(dialect);
  const ext = externalApi(t);

  /** A board with two tasks, a CLI key holding edit with a webhook on the assignment events, an agent with a key, and a person. */
  async function setUp() {
    const cli = await t.services.apiKeys.createKey(OPERATOR, { name: 'cli', allBoards: true, grants: [] });
    const boardId = (await ext(cli.key, 'POST', '/boards', { name: 'Assigned' })).json().data.id;
    const laneId = (await ext(cli.key, 'POST', `/boards/${boardId}/lanes`, { name: 'Todo' })).json().data.id;
    const tasks: string[] = [];
    for (const title of ['One', 'Two']) {
      tasks.push((await ext(cli.key, 'POST', `/boards/${boardId}/tasks`, { title, laneId })).json().data.id);
    }
    const hook = await ext(cli.key, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/assign',
      events: ['task.assigned', 'task.unassigned'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const agent = await t.services.agents.createAgent(OPERATOR, { name: 'Claude' });
    const agentKey = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'claude key',
      allBoards: true,
      grants: [],
      agentId: agent.id,
    });
    const person = await t.person('member', 'Grace');
    const url = (task: string) => `/boards/${boardId}/tasks/${task}`;
    return {
      cli,
      boardId,
      laneId,
      tasks,
      agent,
      agentKey,
      person,
      url,
      hookId: hook.json().data.id as string,
    };
  }

  async function eventsOf(hookId: string) {
    const rows = await t.db.database.kysely
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select('e.payload')
      .where('d.webhook_id', '=', hookId)
      .orderBy('e.created_at')
      .orderBy('e.id')
      .execute();
    return rows.map((r) => {
      const payload = JSON.parse(r.payload);
      expect(bodyAjv.validate(EVENT_PAYLOADS[payload.type as 'task.assigned'], payload)).toBe(true);
      return { type: payload.type, actor: payload.actor, data: payload.data };
    });
  }

  it('PUT assigns (201, then 200 without an event), DELETE unassigns (204, then 404); lists and details show them', async () => {
    const s = await setUp();
    const [one, two] = s.tasks as [string, string];
    const first = await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${s.agent.id}`);
    expect(first.statusCode, first.body).toBe(201);
    const claude = { id: s.agent.id, type: 'agent', name: 'Claude' };
    expect(first.json().data).toEqual({ id: one, assignees: [claude] });
    const again = await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${s.agent.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ id: one, assignees: [claude] });
    const grace = { id: s.person.id, type: 'person', name: 'Grace' };
    const byAgent = await ext(s.agentKey.key, 'PUT', `${s.url(one)}/assignees/${s.person.id}`);
    expect(byAgent.json().data.assignees).toEqual([claude, grace]);

    expect((await ext(s.cli.key, 'GET', s.url(one))).json().data.assignees).toEqual([claude, grace]);
    const listed = (await ext(s.cli.key, 'GET', `/boards/${s.boardId}/tasks`)).json().data;
    expect(listed.map((task: { id: string; assignees: unknown }) => [task.id, task.assignees])).toEqual([
      [one, [claude, grace]],
      [two, []],
    ]);
    const inUi = await s.person.browser.request('GET', `/api/ui/boards/${s.boardId}/tasks/${one}`);
    expect(inUi.json().data.assignees).toEqual([claude, grace]);

    expect((await ext(s.cli.key, 'DELETE', `${s.url(one)}/assignees/${s.agent.id}`)).statusCode).toBe(204);
    expectError(await ext(s.cli.key, 'DELETE', `${s.url(one)}/assignees/${s.agent.id}`), 404, 'not_found');
    expectError(await ext(s.cli.key, 'DELETE', `${s.url(two)}/assignees/${s.person.id}`), 404, 'not_found');
    expect((await ext(s.cli.key, 'GET', s.url(one))).json().data.assignees).toEqual([grace]);

    const cliActor = { type: 'key', id: s.cli.id, name: 'cli' };
    expect(await eventsOf(s.hookId)).toEqual([
      {
        type: 'task.assigned',
        actor: cliActor,
        data: { board_id: s.boardId, task_id: one, assignee: claude },
      },
      {
        type: 'task.assigned',
        actor: { type: 'agent', id: s.agent.id, name: 'Claude' },
        data: { board_id: s.boardId, task_id: one, assignee: grace },
      },
      {
        type: 'task.unassigned',
        actor: cliActor,
        data: { board_id: s.boardId, task_id: one, assignee: claude },
      },
    ]);
  });

  it('an unknown or deactivated member, or an 11th assignee, is a 400 naming memberId; nothing changes', async () => {
    const s = await setUp();
    const [one] = s.tasks as [string];
    const retired = await t.services.agents.createAgent(OPERATOR, { name: 'Retired' });
    await t.services.agents.deactivateAgent(OPERATOR, retired.id);
    const gone = await t.person('member');
    await t.services.people.deactivate(OPERATOR, gone.id);
    for (const memberId of ['usr_missing', 'agt_missing', 'nobody', retired.id, gone.id, s.cli.id]) {
      expectError(
        await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${memberId}`),
        400,
        'validation_error',
        'memberId',
      );
    }
    const members = [s.agent.id];
    for (let i = 0; i < 9; i++)
      members.push((await t.services.agents.createAgent(OPERATOR, { name: `A${i}` })).id);
    for (const memberId of members) {
      expect((await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${memberId}`)).statusCode).toBe(201);
    }
    expectError(
      await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${s.person.id}`),
      400,
      'validation_error',
      'memberId',
    );
    // Already assigned is still fine at the limit.
    expect((await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${s.agent.id}`)).statusCode).toBe(200);
    const assignees = (await ext(s.cli.key, 'GET', s.url(one))).json().data.assignees;
    expect(assignees.map((a: { id: string }) => a.id)).toEqual(members);
    expect((await eventsOf(s.hookId)).length).toBe(10);
  });

  it("needs edit: read keys and keys without a grant get 403; another board's task is 404", async () => {
    const s = await setUp();
    const [one] = s.tasks as [string];
    const reader = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'reader',
      allBoards: false,
      grants: [{ boardId: s.boardId, permission: 'read' }],
    });
    const other = (await ext(s.cli.key, 'POST', '/boards', { name: 'Other' })).json().data.id;
    const stranger = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'stranger',
      allBoards: false,
      grants: [{ boardId: other, permission: 'edit' }],
    });
    expectError(await ext(reader.key, 'PUT', `${s.url(one)}/assignees/${s.agent.id}`), 403, 'forbidden');
    expectError(await ext(stranger.key, 'PUT', `${s.url(one)}/assignees/${s.agent.id}`), 403, 'forbidden');
    expectError(await ext(reader.key, 'DELETE', `${s.url(one)}/assignees/${s.agent.id}`), 403, 'forbidden');
    expectError(
      await ext(s.cli.key, 'PUT', `/boards/${other}/tasks/${one}/assignees/${s.agent.id}`),
      404,
      'not_found',
    );
    expect((await ext(reader.key, 'GET', s.url(one))).json().data.assignees).toEqual([]);
    // Every person works every board: a member assigns in the web UI (no webhook fires for it).
    const inUi = await s.person.browser.request(
      'PUT',
      `/api/ui/boards/${s.boardId}/tasks/${one}/assignees/${s.agent.id}`,
    );
    expect(inUi.statusCode, inUi.body).toBe(201);
    expect(await eventsOf(s.hookId)).toEqual([]);
  });

  it("filters the list by assignee=ID and assignee=me (the key's agent, its person, the signed-in person)", async () => {
    const s = await setUp();
    const [one, two] = s.tasks as [string, string];
    await ext(s.cli.key, 'PUT', `${s.url(one)}/assignees/${s.agent.id}`);
    await ext(s.cli.key, 'PUT', `${s.url(two)}/assignees/${s.person.id}`);
    const ids = async (key: string, query: string) => {
      const res = await ext(key, 'GET', `/boards/${s.boardId}/tasks?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((task: { id: string }) => task.id);
    };
    expect(await ids(s.cli.key, `assignee=${s.agent.id}`)).toEqual([one]);
    expect(await ids(s.cli.key, `assignee=${s.person.id}`)).toEqual([two]);
    expect(await ids(s.cli.key, 'assignee=usr_nobody')).toEqual([]);
    expect(await ids(s.agentKey.key, 'assignee=me')).toEqual([one]);
    const personKey = await s.person.browser.request('POST', '/api/ui/keys', {
      name: 'mine',
      allBoards: true,
      grants: [],
    });
    expect(await ids(personKey.json().data.key, 'assignee=me')).toEqual([two]);
    const inUi = await s.person.browser.request('GET', `/api/ui/boards/${s.boardId}/tasks?assignee=me`);
    expect(inUi.json().data.map((task: { id: string }) => task.id)).toEqual([two]);
    expectError(
      await ext(s.cli.key, 'GET', `/boards/${s.boardId}/tasks?assignee=me`),
      400,
      'validation_error',
      'assignee',
    );
    expectError(
      await ext(s.cli.key, 'GET', `/boards/${s.boardId}/tasks?assignee=`),
      400,
      'validation_error',
      'assignee',
    );
  });
});
