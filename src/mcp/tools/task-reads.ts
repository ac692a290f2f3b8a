import { Type } from '@sinclair/typebox';
import { pageNote, priorityName, taskLine } from '../format.js';
import { TaskDetailResult, TasksResult } from '../outputs.js';
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
import { callApi, defineTool, type ToolContext } from '../tool.js';

interface SearchHit {
  kind: string;
  taskId: string;
  snippet: string;
}

/** At most this many search hits are ranked (four pages of the search endpoint). */
const MAX_HITS = 200;

/**
 * Tasks whose title, description, tags, comments, todos or turns hold every word (the server's full-text
 * search, best match first), with the first matching snippet of each.
 */
async function searchHits(
  ctx: ToolContext,
  query: string,
  filters: { boardId?: string; assignee?: string; includeArchived?: boolean },
): Promise<Map<string, SearchHit>> {
  const hits = new Map<string, SearchHit>();
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ q: query, limit: '50' });
    if (filters.boardId) params.set('boardId', filters.boardId);
    if (filters.assignee) params.set('assignee', filters.assignee);
    if (filters.includeArchived) params.set('includeArchived', 'true');
    if (cursor) params.set('cursor', cursor);
    const page: { data: SearchHit[]; cursor: string | null } = await callApi(ctx, {
      method: 'GET',
      path: `/search?${params}`,
    });
    for (const hit of page.data) if (!hits.has(hit.taskId)) hits.set(hit.taskId, hit);
    cursor = page.cursor;
  } while (cursor !== null && hits.size < MAX_HITS);
  return hits;
}

export const findTasks = defineTool({
  name: 'find_tasks',
  description:
    'Find tasks by shortId prefix or by words in their title, description, tags, comments, todos or turns (best match first), on one board or all. Paged: total + `more` cursor.',
  readOnly: true,
  output: TasksResult,
  input: Type.Object(
    {
      query: Type.Optional(
        Type.String({
          maxLength: 200,
          description: 'shortId prefix, or words ("quoted phrase", -excluded)',
        }),
      ),
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
    const query = args.query?.trim() ?? '';
    const prefix = query.replace(/^#/, '').toLowerCase();
    const hits =
      query === ''
        ? null
        : await searchHits(ctx, query, {
            ...(args.board !== undefined || args.lane !== undefined
              ? { boardId: (boards[0] as BoardDetail).id }
              : {}),
            ...(args.assignee !== undefined ? { assignee: args.assignee } : {}),
            ...(args.includeArchived ? { includeArchived: true } : {}),
          });
    const rankOf = new Map([...(hits?.keys() ?? [])].map((taskId, index) => [taskId, index]));
    const found: Array<{ task: TaskSummary; board: BoardDetail; rank: number }> = [];
    for (const board of boards) {
      const params = new URLSearchParams();
      if (lane) params.set('laneId', lane.id);
      if (args.includeArchived) params.set('includeArchived', 'true');
      if (args.assignee !== undefined) params.set('assignee', args.assignee);
      const path = `${boardPath(board.id, 'tasks')}?${params}`;
      const tasks = (await callApi<{ data: TaskSummary[] }>(ctx, { method: 'GET', path })).data;
      for (const task of tasks) {
        if (hits === null) {
          found.push({ task, board, rank: 0 });
          continue;
        }
        // A shortId prefix first, then the search's order.
        const rank = task.shortId.startsWith(prefix) ? -1 : rankOf.get(task.id);
        if (rank !== undefined) found.push({ task, board, rank });
      }
    }
    if (hits !== null) found.sort((a, b) => a.rank - b.rank);
    const offset = decodeCursor(args.cursor);
    const limit = args.limit ?? 20;
    const page = found.slice(offset, offset + limit);
    const more = offset + limit < found.length ? encodeCursor(offset + limit) : null;
    const several = boards.length > 1;
    const lines = page.flatMap(({ task, board }) => {
      const line = taskLine(task, laneName(board, task.laneId), several ? board.name : undefined);
      const hit = hits?.get(task.id);
      return hit && hit.kind !== 'task' ? [line, `  ${hit.kind}: ${hit.snippet}`] : [line];
    });
    return {
      text: [pageNote(offset, page.length, found.length, more), ...lines].join('\n'),
      structured: {
        tasks: page.map(({ task, board }) => ({
          ...task,
          lane: laneName(board, task.laneId),
          boardId: board.id,
          board: board.name,
          ...(hits?.get(task.id) ? { match: hits.get(task.id) } : {}),
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

interface Turn {
  id: string;
  source: string;
  role: string;
  content: string;
  capturedAt: string;
}

/** Each turn's content is cut to this many characters: a long transcript must not fill the context. */
export const TURN_CHARS = 1_000;

function cut(text: string): string {
  return text.length <= TURN_CHARS
    ? text
    : `${text.slice(0, TURN_CHARS)}… (${text.length - TURN_CHARS} more characters)`;
}

export const getTask = defineTool({
  name: 'get_task',
  description: `One task in full: description, todos, the latest comments, and the latest turns per source (each cut to ${TURN_CHARS} characters).`,
  readOnly: true,
  output: TaskDetailResult,
  input: Type.Object(
    {
      task: TaskRef,
      board: BoardRef,
      comments: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 100, default: 10, description: 'How many latest comments' }),
      ),
      turns: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 20,
          default: 3,
          description: 'How many latest turns per source',
        }),
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
    const perSource = args.turns ?? 3;
    const sources = perSource === 0 ? [] : Object.keys(watermarks.watermarks).sort();
    const turnPages = await Promise.all(
      sources.map((source) =>
        callApi<{ data: Turn[] }>(ctx, {
          method: 'GET',
          path: `${base}/turns?${new URLSearchParams({ source, order: 'newest', limit: String(perSource) })}`,
        }),
      ),
    );
    // Oldest first within each source, as a conversation reads.
    const turns = turnPages.flatMap((page) =>
      page.data.reverse().map((t) => ({ ...t, content: cut(t.content) })),
    );
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
      turns.length
        ? `Turns (latest ${perSource} per source, each cut to ${TURN_CHARS} characters):`
        : `Turns: ${task.lastTurnAt ? 'none asked for' : 'none captured'}.`,
      ...turns.map((t) => `- ${t.source} ${t.role} (${t.capturedAt}): ${t.content}`),
    ];
    return {
      text: lines.join('\n'),
      structured: {
        task: { ...task, lane, boardId: board.id, board: board.name },
        todos: todos.data,
        comments: recent,
        commentTotal: comments.data.length,
        turns,
        watermarks: watermarks.watermarks,
      },
    };
  },
});
