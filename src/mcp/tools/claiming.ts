import { Type } from '@sinclair/typebox';
import { boardPath, resolveBoard, resolveLane, resolveTask } from '../references.js';
import { BoardRef, LaneRef, TaskRef } from '../schemas.js';
import { callApi, defineTool } from '../tool.js';

interface ClaimedTask {
  id: string;
  shortId: string;
  title: string;
  laneId: string;
}

export const claimNextTask = defineTool({
  name: 'claim_next_task',
  description:
    'Take the first unassigned task of a lane (by name) and assign yourself; moveTo moves it to another lane. Never hands a task to two callers.',
  readOnly: false,
  rest: [
    {
      operation: 'POST /api/ext/v1/boards/{boardId}/claim-next',
      at: [],
      renamed: { laneId: 'lane', moveToLaneId: 'moveTo' },
    },
  ],
  input: Type.Object(
    { board: BoardRef, lane: LaneRef, moveTo: Type.Optional(LaneRef) },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const board = await resolveBoard(ctx, args.board);
    const lane = resolveLane(board, args.lane);
    const moveTo = args.moveTo === undefined ? undefined : resolveLane(board, args.moveTo);
    const body = { laneId: lane.id, ...(moveTo ? { moveToLaneId: moveTo.id } : {}) };
    const path = `${boardPath(board.id)}/claim-next`;
    // 204: nothing left to take; said plainly rather than as an error.
    const answer = await ctx.api.request({ method: 'POST', path, body });
    if (answer.status === 204) {
      return {
        text: `No task left to claim in "${lane.name}": every task there is assigned or archived.`,
        structured: { task: null },
      };
    }
    // Errors are worded as every tool's are, from the answer already received (a claim is not repeated).
    const answered = { ...ctx, api: { request: async () => answer } };
    const { data: task } = await callApi<{ data: ClaimedTask }>(answered, { method: 'POST', path, body });
    return {
      text: `Claimed ${task.shortId}: ${task.title}${moveTo ? ` (moved to "${moveTo.name}")` : ` (in "${lane.name}")`}.`,
      structured: { task },
    };
  },
});

interface AssignedTask {
  id: string;
  assignees: Array<{ id: string; type: 'person' | 'agent'; name: string }>;
}

export const assignTask = defineTool({
  name: 'assign_task',
  description:
    'Assign a person (usr_…) or agent (agt_…) to a task, by member id (the API lists no members by name); unassign: true takes them off.',
  readOnly: false,
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      member: Type.String({ minLength: 1, maxLength: 100, description: 'Member id: usr_… or agt_…' }),
      unassign: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const path = boardPath(board.id, 'tasks', task.id, 'assignees', args.member);
    if (args.unassign === true) {
      await callApi(ctx, { method: 'DELETE', path });
      return {
        text: `Unassigned ${args.member} from ${task.shortId}.`,
        structured: { task: { id: task.id, shortId: task.shortId }, unassigned: args.member },
      };
    }
    const { data } = await callApi<{ data: AssignedTask }>(ctx, { method: 'PUT', path });
    const names = data.assignees.map((a) => `${a.name} (${a.type})`).join(', ');
    return {
      text: `Assigned ${task.shortId}; assignees now: ${names}.`,
      structured: { task: { ...data, shortId: task.shortId } },
    };
  },
});
