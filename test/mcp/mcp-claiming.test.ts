import { expect, it } from 'vitest';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import { API, agentWithKey, boardWithLanes, createTask, describeOverTransports } from './mcp-support.js';

describeOverTransports('MCP claiming and assignee filter', (mcp, transport) => {
  it('an agent claims the next task of a lane by name with a move, finds it with assignee "me", and hears "no task left"', async () => {
    const { agent, key } = await agentWithKey(mcp.t, `Claimer ${transport}`, 'agent key');
    const session = await mcp.connect(transport, key);

    const { boardId, lanes } = await boardWithLanes(mcp.t, key, `Claims ${transport}`, ['Todo', 'Doing']);
    const first = await createTask(mcp.t, key, boardId, { title: 'First job', laneId: lanes.Todo });
    await createTask(mcp.t, key, boardId, { title: 'Other job', laneId: lanes.Todo });

    const claimed = await session.call('claim_next_task', {
      board: boardId,
      lane: 'todo',
      moveTo: 'Doing',
    });
    expect(claimed.isError).toBe(false);
    expect(claimed.text).toContain(`Claimed ${first.shortId}: First job (moved to "Doing")`);
    const detail = (await mcp.t.request(key, 'GET', `${API}/boards/${boardId}/tasks/${first.id}`)).json()
      .data;
    expect(detail.laneId).toBe(lanes.Doing);
    expect(detail.assignees).toEqual([{ id: agent.id, type: 'agent', name: agent.name }]);

    const mine = await session.call('find_tasks', { board: boardId, assignee: 'me' });
    expect(mine.isError).toBe(false);
    expect((mine.structured.tasks as Array<{ id: string }>).map((task) => task.id)).toEqual([first.id]);

    // The other task is taken next; then the lane has nothing left, said as text, not as an error.
    expect((await session.call('claim_next_task', { board: boardId, lane: 'Todo' })).text).toContain(
      'Other job',
    );
    const none = await session.call('claim_next_task', { board: boardId, lane: 'Todo' });
    expect(none.isError).toBe(false);
    expect(none.text).toBe('No task left to claim in "Todo": every task there is assigned or archived.');

    // assign_task puts another agent on the task by id, and takes it off again by name.
    const helper = await mcp.t.services.agents.createAgent(OPERATOR, { name: `Helper ${transport}` });
    const assigned = await session.call('assign_task', { task: first.shortId, member: helper.id });
    expect(assigned.isError).toBe(false);
    expect(assigned.text).toBe(
      `Assigned ${helper.id} to ${first.shortId}; assignees now: ${agent.name} (agent), ${helper.name} (agent).`,
    );
    const removed = await session.call('assign_task', {
      task: first.shortId,
      member: helper.name.toUpperCase(),
      unassign: true,
    });
    expect(removed.isError).toBe(false);
    expect(removed.text).toBe(`Unassigned ${helper.name} (agent) from ${first.shortId}.`);
    // "me" is the key's agent; a name that matches several members lists them.
    const other = (await mcp.t.request(key, 'GET', `${API}/boards/${boardId}/tasks?includeArchived=true`))
      .json()
      .data.find((task: { id: string }) => task.id !== first.id);
    await session.call('assign_task', { task: other.shortId, member: 'me', unassign: true });
    const me = await session.call('assign_task', { task: other.shortId, member: 'me' });
    expect(me.text).toBe(
      `Assigned ${agent.name} (agent) to ${other.shortId}; assignees now: ${agent.name} (agent).`,
    );
    await mcp.t.services.agents.createAgent(OPERATOR, { name: `Helper ${transport} two` });
    const ambiguous = await session.call('assign_task', { task: first.shortId, member: 'helper' });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain('Member "helper" is ambiguous.');
    expect(ambiguous.text).toContain(helper.id);
    const nobody = await session.call('assign_task', { task: first.shortId, member: 'Nobody at all' });
    expect(nobody.text).toContain('No active person or agent is named "Nobody at all".');
    const after = (await mcp.t.request(key, 'GET', `${API}/boards/${boardId}/tasks/${first.id}`)).json().data;
    expect(after.assignees).toEqual([{ id: agent.id, type: 'agent', name: agent.name }]);
    const unknown = await session.call('assign_task', { task: first.shortId, member: 'agt_nobody' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('memberId');
  });
});
