import { Type } from '@sinclair/typebox';
import { AssignResult, ClaimResult } from '../outputs.js';
import { boardPath, resolveBoard, resolveLane, resolveTask } from '../references.js';
import { BoardRef, LaneRef, TaskRef } from '../schemas.js';
import { callApi, defineTool, type ToolContext, ToolError } from '../tool.js';

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
  output: ClaimResult,
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

interface Member {
  id: string;
  type: 'person' | 'agent';
  name: string;
}

/** A member by id, by "me" (the key's agent or person) or by name (exact, else a unique part). */
async function resolveMember(ctx: ToolContext, ref: string): Promise<Member | string> {
  if (/^(usr|agt)_/.test(ref)) return ref;
  if (ref.toLowerCase() === 'me') {
    const { data } = await callApi<{ data: { member: Member | null } }>(ctx, { method: 'GET', path: '/me' });
    if (data.member) return data.member;
    throw new ToolError(
      'validation_error',
      'This API key belongs to no agent or person, so it cannot stand for "me".',
      'Name the member instead, or use a key made for an agent.',
    );
  }
  const query = new URLSearchParams({ name: ref.trim() });
  const found = (await callApi<{ data: Member[] }>(ctx, { method: 'GET', path: `/members?${query}` })).data;
  const wanted = ref.trim().toLowerCase();
  const exact = found.filter((m) => m.name.toLowerCase() === wanted);
  const matches = exact.length ? exact : found;
  if (matches.length === 1) return matches[0] as Member;
  const names = matches.slice(0, 20).map((m) => `${m.name} (${m.type}, ${m.id})`);
  throw new ToolError(
    matches.length ? 'validation_error' : 'not_found',
    matches.length ? `Member "${ref}" is ambiguous.` : `No active person or agent is named "${ref}".`,
    matches.length ? `Pass one of these ids: ${names.join('; ')}.` : undefined,
  );
}

export const assignTask = defineTool({
  name: 'assign_task',
  description:
    'Assign a person or agent to a task, by name, "me" or id (usr_…/agt_…); unassign: true takes them off.',
  readOnly: false,
  output: AssignResult,
  destructive: true,
  idempotent: true,
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      member: Type.String({ minLength: 1, maxLength: 200, description: 'Name, "me", or usr_…/agt_… id' }),
      unassign: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const member = await resolveMember(ctx, args.member);
    const memberId = typeof member === 'string' ? member : member.id;
    const who = typeof member === 'string' ? member : `${member.name} (${member.type})`;
    const path = boardPath(board.id, 'tasks', task.id, 'assignees', memberId);
    if (args.unassign === true) {
      await callApi(ctx, { method: 'DELETE', path });
      return {
        text: `Unassigned ${who} from ${task.shortId}.`,
        structured: { task: { id: task.id, shortId: task.shortId }, unassigned: memberId },
      };
    }
    const { data } = await callApi<{ data: AssignedTask }>(ctx, { method: 'PUT', path });
    const names = data.assignees.map((a) => `${a.name} (${a.type})`).join(', ');
    return {
      text: `Assigned ${who} to ${task.shortId}; assignees now: ${names}.`,
      structured: { task: { ...data, shortId: task.shortId } },
    };
  },
});
