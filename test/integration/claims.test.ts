import { expect, it } from 'vitest';
import { expectError } from '../support/api.js';
import { describeEachDialect } from '../support/dialects.js';
import { OPERATOR, useUiTestApp } from '../ui/ui-support.js';
import { externalApi } from './member-fixtures.js';

describeEachDialect('claiming tasks', (dialect) => {
  const t = useUiTestApp(dialect);
  const ext = externalApi(t);

  async function agentWithKey(name: string) {
    const agent = await t.services.agents.createAgent(OPERATOR, { name });
    const key = await t.services.apiKeys.createKey(OPERATOR, {
      name,
      allBoards: true,
      grants: [],
      agentId: agent.id,
    });
    return { id: agent.id, key: key.key };
  }

  /** A board with lanes Todo (tasks A, B, C) and Doing, a CLI key, and an agent with its key. */
  async function setUp() {
    const cli = await t.services.apiKeys.createKey(OPERATOR, { name: 'cli', allBoards: true, grants: [] });
    const boardId = (await ext(cli.key, 'POST', '/boards', { name: 'Claims' })).json().data.id;
    const todo = (await ext(cli.key, 'POST', `/boards/${boardId}/lanes`, { name: 'Todo' })).json().data.id;
    const doing = (await ext(cli.key, 'POST', `/boards/${boardId}/lanes`, { name: 'Doing' })).json().data.id;
    const tasks: string[] = [];
    for (const title of ['A', 'B', 'C']) {
      tasks.push(
        (await ext(cli.key, 'POST', `/boards/${boardId}/tasks`, { title, laneId: todo })).json().data.id,
      );
    }
    const agent = await agentWithKey('Claude');
    const activitiesOf = async (taskId: string) =>
      (await t.services.activities.listForTask(OPERATOR, boardId, taskId)).data.map((a) => a.type).reverse();
    return { cli, boardId, todo, doing, tasks, agent, activitiesOf };
  }

  it('claim assigns the caller when nobody holds the task; someone else holding it is 409 naming them', async () => {
    const s = await setUp();
    const [a] = s.tasks as [string];
    const claimed = await ext(s.agent.key, 'POST', `/boards/${s.boardId}/tasks/${a}/claim`);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().data).toMatchObject({
      id: a,
      title: 'A',
      assignees: [{ id: s.agent.id, type: 'agent', name: 'Claude' }],
    });
    // Claiming what one already holds is fine and changes nothing.
    expect((await ext(s.agent.key, 'POST', `/boards/${s.boardId}/tasks/${a}/claim`)).statusCode).toBe(200);
    const rival = await agentWithKey('Copilot');
    expectError(
      await ext(rival.key, 'POST', `/boards/${s.boardId}/tasks/${a}/claim`),
      409,
      'conflict',
      'Claude',
    );
    expect(await s.activitiesOf(a)).toEqual(['task.created', 'task.assigned']);

    // A person claims in the web UI, and with a key they made.
    const person = await t.person('member', 'Grace');
    const [, b, c] = s.tasks as [string, string, string];
    const inUi = await person.browser.request('POST', `/api/ui/boards/${s.boardId}/tasks/${b}/claim`);
    expect(inUi.statusCode, inUi.body).toBe(200);
    expect(inUi.json().data.assignees).toEqual([{ id: person.id, type: 'person', name: 'Grace' }]);
    const personKey = (
      await person.browser.request('POST', '/api/ui/keys', { name: 'k', allBoards: true, grants: [] })
    ).json().data.key;
    expect(
      (await ext(personKey, 'POST', `/boards/${s.boardId}/tasks/${c}/claim`)).json().data.assignees,
    ).toEqual([{ id: person.id, type: 'person', name: 'Grace' }]);
  });

  it('a key of nobody cannot claim (400), a read key gets 403, a missing task 404; nothing changes', async () => {
    const s = await setUp();
    const [a] = s.tasks as [string];
    expectError(
      await ext(s.cli.key, 'POST', `/boards/${s.boardId}/tasks/${a}/claim`),
      400,
      'validation_error',
    );
    expectError(
      await ext(s.cli.key, 'POST', `/boards/${s.boardId}/claim-next`, { laneId: s.todo }),
      400,
      'validation_error',
    );
    const reader = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'reader',
      allBoards: false,
      grants: [{ boardId: s.boardId, permission: 'read' }],
      agentId: s.agent.id,
    });
    expectError(await ext(reader.key, 'POST', `/boards/${s.boardId}/tasks/${a}/claim`), 403, 'forbidden');
    expectError(
      await ext(reader.key, 'POST', `/boards/${s.boardId}/claim-next`, { laneId: s.todo }),
      403,
      'forbidden',
    );
    expectError(
      await ext(s.agent.key, 'POST', `/boards/${s.boardId}/tasks/task_missing/claim`),
      404,
      'not_found',
    );
    const list = (await ext(s.cli.key, 'GET', `/boards/${s.boardId}/tasks`)).json().data;
    expect(list.map((task: { assignees: unknown[] }) => task.assignees)).toEqual([[], [], []]);
  });

  it('claim-next takes the first unassigned, non-archived task by position, optionally moving it; 204 when none', async () => {
    const s = await setUp();
    const [a, b, c] = s.tasks as [string, string, string];
    await ext(s.cli.key, 'PUT', `/boards/${s.boardId}/tasks/${a}/assignees/${s.agent.id}`);
    await ext(s.cli.key, 'PATCH', `/boards/${s.boardId}/tasks/${b}`, { archived: true });
    const next = await ext(s.agent.key, 'POST', `/boards/${s.boardId}/claim-next`, {
      laneId: s.todo,
      moveToLaneId: s.doing,
    });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().data).toMatchObject({
      id: c,
      laneId: s.doing,
      position: 0,
      assignees: [{ id: s.agent.id, type: 'agent', name: 'Claude' }],
    });
    expect(await s.activitiesOf(c)).toEqual(['task.created', 'task.assigned', 'task.moved']);
    const none = await ext(s.agent.key, 'POST', `/boards/${s.boardId}/claim-next`, { laneId: s.todo });
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    // Without a move the task stays where it is.
    const d = (
      await ext(s.cli.key, 'POST', `/boards/${s.boardId}/tasks`, { title: 'D', laneId: s.todo })
    ).json().data;
    const stay = await ext(s.agent.key, 'POST', `/boards/${s.boardId}/claim-next`, { laneId: s.todo });
    expect(stay.json().data).toMatchObject({ id: d.id, laneId: s.todo, position: d.position });
  });

  it('claim-next rejects bad bodies with 400 naming the field, changing nothing', async () => {
    const s = await setUp();
    const other = (await ext(s.cli.key, 'POST', '/boards', { name: 'Other' })).json().data.id;
    const foreignLane = (await ext(s.cli.key, 'POST', `/boards/${other}/lanes`, { name: 'X' })).json().data
      .id;
    const cases: Array<[unknown, string]> = [
      [{}, 'laneId'],
      [{ laneId: '' }, 'laneId'],
      [{ laneId: 7 }, 'laneId'],
      [{ laneId: foreignLane }, 'laneId'],
      [{ laneId: s.todo, moveToLaneId: foreignLane }, 'moveToLaneId'],
      [{ laneId: s.todo, moveToLaneId: '' }, 'moveToLaneId'],
      [{ laneId: s.todo, position: 1 }, 'position'],
    ];
    for (const [body, field] of cases) {
      expectError(
        await ext(s.agent.key, 'POST', `/boards/${s.boardId}/claim-next`, body),
        400,
        'validation_error',
        field,
      );
    }
    const list = (await ext(s.cli.key, 'GET', `/boards/${s.boardId}/tasks`)).json().data;
    expect(
      list.map((task: { assignees: unknown[]; laneId: string }) => [task.laneId, task.assignees]),
    ).toEqual([
      [s.todo, []],
      [s.todo, []],
      [s.todo, []],
    ]);
  });
});
