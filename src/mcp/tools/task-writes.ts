import { Type } from '@sinclair/typebox';
import { priorityName } from '../format.js';
import { TaskResult } from '../outputs.js';
import { boardPath, laneName, resolveBoard, resolveLane, resolveTask } from '../references.js';
import {
  BoardRef,
  IdempotencyKey,
  LaneRef,
  MoveFields,
  TaskFields,
  TaskRef,
  TaskUpdateFields,
} from '../schemas.js';
import { callApi, defineTool } from '../tool.js';

const TASKS = 'POST /api/ext/v1/boards/{boardId}/tasks';
const TASK = '/api/ext/v1/boards/{boardId}/tasks/{taskId}';

interface CreatedTask {
  id: string;
  shortId: string;
  title: string;
  laneId: string;
  priority: number;
}

export const createTask = defineTool({
  name: 'create_task',
  description: 'Create a task at the end of a lane (lane by name).',
  readOnly: false,
  output: TaskResult,
  rest: [{ operation: TASKS, at: [], renamed: { laneId: 'lane' } }],
  input: Type.Object(
    {
      board: BoardRef,
      lane: LaneRef,
      title: TaskFields.title,
      description: TaskFields.description,
      priority: TaskFields.priority,
      tags: TaskFields.tags,
      idempotencyKey: IdempotencyKey,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const board = await resolveBoard(ctx, args.board);
    const lane = resolveLane(board, args.lane);
    const { board: _b, lane: _l, idempotencyKey, ...fields } = args;
    const created = await callApi<{ data: CreatedTask }>(ctx, {
      method: 'POST',
      path: boardPath(board.id, 'tasks'),
      body: { ...fields, laneId: lane.id },
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    const task = created.data;
    return {
      text: `Created ${task.shortId}: ${task.title} in lane "${lane.name}" of "${board.name}" (${task.id}).`,
      structured: { task: { ...task, lane: lane.name, boardId: board.id, board: board.name } },
    };
  },
});

export const updateTask = defineTool({
  name: 'update_task',
  description: "Change a task's title, description, priority or tags.",
  readOnly: false,
  output: TaskResult,
  destructive: true,
  idempotent: true,
  rest: [{ operation: `PATCH ${TASK}`, at: [], fixed: ['archived'] }],
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      title: TaskUpdateFields.title,
      description: TaskUpdateFields.description,
      priority: TaskUpdateFields.priority,
      tags: TaskUpdateFields.tags,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const { task: _t, board: _b, ...fields } = args;
    const updated = await callApi<{ data: Record<string, unknown> }>(ctx, {
      method: 'PATCH',
      path: boardPath(board.id, 'tasks', task.id),
      body: fields,
    });
    const changed = Object.keys(fields);
    const summary = changed.length
      ? changed
          .map((f) =>
            f === 'priority' ? `priority ${fields.priority} (${priorityName(fields.priority ?? 0)})` : f,
          )
          .join(', ')
      : 'nothing (no field given)';
    return {
      text: `Updated ${task.shortId}: ${summary}.`,
      structured: { task: { ...updated.data, shortId: task.shortId } },
    };
  },
});

export const moveTask = defineTool({
  name: 'move_task',
  description: 'Move a task to a lane (by name), at the end or at a 0-based position.',
  readOnly: false,
  output: TaskResult,
  idempotent: true,
  rest: [{ operation: `POST ${TASK}/move`, at: [], renamed: { laneId: 'lane' } }],
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      lane: LaneRef,
      position: MoveFields.position,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const lane = resolveLane(board, args.lane);
    const moved = await callApi<{ data: { id: string; laneId: string; position: number } }>(ctx, {
      method: 'POST',
      path: `${boardPath(board.id, 'tasks', task.id)}/move`,
      body: { laneId: lane.id, ...(args.position === undefined ? {} : { position: args.position }) },
    });
    const from = laneName(board, task.laneId);
    const text =
      task.laneId !== lane.id
        ? `Moved ${task.shortId} from "${from}" to "${lane.name}" at position ${moved.data.position}.`
        : task.position === moved.data.position
          ? `${task.shortId} was already in "${lane.name}" at position ${moved.data.position}: nothing changed.`
          : `${task.shortId} stays in "${lane.name}", now at position ${moved.data.position} (was ${task.position}).`;
    return {
      text,
      structured: { task: { ...moved.data, shortId: task.shortId, lane: lane.name, fromLane: from } },
    };
  },
});

export const archiveTask = defineTool({
  name: 'archive_task',
  description: 'Archive a task (hidden from lists), or unarchive it with archived=false.',
  readOnly: false,
  output: TaskResult,
  destructive: true,
  idempotent: true,
  input: Type.Object(
    { task: TaskRef, board: BoardRef, archived: Type.Optional(Type.Boolean({ default: true })) },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const archived = args.archived ?? true;
    await callApi(ctx, {
      method: 'PATCH',
      path: boardPath(board.id, 'tasks', task.id),
      body: { archived },
    });
    return {
      text: `${archived ? 'Archived' : 'Unarchived'} ${task.shortId}: ${task.title}.`,
      structured: { task: { id: task.id, shortId: task.shortId, archived } },
    };
  },
});
