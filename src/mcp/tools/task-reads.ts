import { Type } from '@sinclair/typebox';
import { pageNote, priorityName, taskLine } from '../format.js';
import {
  type BoardDetail,
  boardDetail,
  boardPath,
  laneName,
  listBoards,
  resolveBoard,
  resolveLane,
  resolveTask,
  type TaskSummary,
} from '../references.js';
import { BoardRef, Cursor, decodeCursor, encodeCursor, Limit, TaskRef } from '../schemas.js';
import { callApi, defineTool } from '../tool.js';

function matches(task: TaskSummary, words: string[]): boolean {
  if (words.length === 0) return true;
  const haystack = `${task.title} ${task.tags.join(' ')}`.toLowerCase();
  return words.every((w) => task.shortId.startsWith(w.replace(/^#/, '')) || haystack.includes(w));
}

export const findTasks = defineTool({
  name: 'find_tasks',
  description:
    'Search tasks by shortId prefix or words of the title/tags, on one board or all. Paged: total + `more` cursor.',
  readOnly: true,
  input: Type.Object(
    {
      query: Type.Optional(Type.String({ maxLength: 500, description: 'shortId prefix or words' })),
      board: BoardRef,
      lane: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Lane name or id (needs board)' }),
      ),
      assignee: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: '"me" or a member id: tasks assigned to them',
        }),
      ),
      includeArchived: Type.Optional(Type.Boolean()),
      limit: Limit,
      cursor: Cursor,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const boards: BoardDetail[] =
      args.board !== undefined || args.lane !== undefined
        ? [await resolveBoard(ctx, args.board)]
        : await Promise.all((await listBoards(ctx)).map((b) => boardDetail(ctx, b.id)));
    const lane = args.lane !== undefined ? resolveLane(boards[0] as BoardDetail, args.lane) : undefined;
    const words = (args.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const found: Array<{ task: TaskSummary; board: BoardDetail }> = [];
    for (const board of boards) {
      const query = new URLSearchParams();
      if (lane) query.set('laneId', lane.id);
      if (args.includeArchived) query.set('includeArchived', 'true');
      if (args.assignee !== undefined) query.set('assignee', args.assignee);
      const path = `${boardPath(board.id, 'tasks')}?${query}`;
      const tasks = (await callApi<{ data: TaskSummary[] }>(ctx, { method: 'GET', path })).data;
      for (const task of tasks) if (matches(task, words)) found.push({ task, board });
    }
    const offset = decodeCursor(args.cursor);
    const limit = args.limit ?? 20;
    const page = found.slice(offset, offset + limit);
    const more = offset + limit < found.length ? encodeCursor(offset + limit) : null;
    const several = boards.length > 1;
    const lines = page.map(({ task, board }) =>
      taskLine(task, laneName(board, task.laneId), several ? board.name : undefined),
    );
    return {
      text: [pageNote(offset, page.length, found.length, more), ...lines].join('\n'),
      structured: {
        tasks: page.map(({ task, board }) => ({
          ...task,
          lane: laneName(board, task.laneId),
          boardId: board.id,
          board: board.name,
        })),
        total: found.length,
        more,
      },
    };
  },
});

interface Todo {
  id: string;
  text: string;
  iteration: number;
  done: boolean;
  order: number;
  source: string;
}
interface Comment {
  id: string;
  body: string;
  authorName: string;
  authorSource: string;
  createdAt: string;
  reactions?: Array<{ content: string; count: number }>;
}

export const getTask = defineTool({
  name: 'get_task',
  description: 'One task in full: description, todos, the latest comments and turn watermarks.',
  readOnly: true,
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      comments: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 100, default: 10, description: 'How many latest comments' }),
      ),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const base = boardPath(board.id, 'tasks', task.id);
    const [todos, comments, watermarks] = await Promise.all([
      callApi<{ data: Todo[] }>(ctx, { method: 'GET', path: `${base}/todos` }),
      callApi<{ data: Comment[] }>(ctx, { method: 'GET', path: `${base}/comments` }),
      callApi<{ watermarks: Record<string, unknown> }>(ctx, {
        method: 'GET',
        path: `${base}/turns/watermark`,
      }),
    ]);
    const wanted = args.comments ?? 10;
    const recent = wanted === 0 ? [] : comments.data.slice(-wanted);
    const lane = laneName(board, task.laneId);
    const lines = [
      `${task.shortId}: ${task.title} (${task.id})`,
      `Board "${board.name}" · lane "${lane}" · priority ${task.priority} (${priorityName(task.priority)})${task.tags.length ? ` · tags ${task.tags.join(', ')}` : ''}${task.archived ? ' · archived' : ''}`,
      task.description ? `Description:\n${task.description}` : 'No description.',
      `Todos (${todos.data.length}):`,
      ...todos.data.map((t) => `- [${t.done ? 'x' : ' '}] ${t.text} (${t.id}, iteration ${t.iteration})`),
      `Comments (latest ${recent.length} of ${comments.data.length}):`,
      ...recent.map((c) => `- ${c.authorName} (${c.authorSource}, ${c.createdAt}, ${c.id}): ${c.body}`),
      `Last turn: ${task.lastTurnAt ?? 'none'}`,
    ];
    return {
      text: lines.join('\n'),
      structured: {
        task: { ...task, lane, boardId: board.id, board: board.name },
        todos: todos.data,
        comments: recent,
        commentTotal: comments.data.length,
        watermarks: watermarks.watermarks,
      },
    };
  },
});
