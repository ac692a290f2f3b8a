import type { Static } from '@sinclair/typebox';
import type {
  BoardDetail as BoardDetailSchema,
  BoardSummary as BoardSummarySchema,
} from '../schemas/boards.js';
import type { Task as TaskSchema, TaskSummary as TaskSummarySchema } from '../schemas/tasks.js';
import { callApi, enc, type ToolContext, ToolError } from './tool.js';

// The external API's response shapes, from the schemas its routes answer with.
export type BoardSummary = Static<typeof BoardSummarySchema>;
export type BoardDetail = Static<typeof BoardDetailSchema>;
export type LaneSummary = BoardDetail['lanes'][number];
export type TaskSummary = Static<typeof TaskSummarySchema>;
export type TaskDetail = Static<typeof TaskSchema>;

/** A task found from a reference, with its board (lanes included, so lane names can be shown). */
export interface ResolvedTask {
  board: BoardDetail;
  task: TaskDetail;
}

const MAX_NAMES_IN_HINT = 20;

function nameList(names: string[]): string {
  const shown = names.slice(0, MAX_NAMES_IN_HINT).map((n) => `"${n}"`);
  const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
  return shown.length ? `${shown.join(', ')}${more}` : '(none)';
}

export async function listBoards(ctx: ToolContext): Promise<BoardSummary[]> {
  return (await callApi<{ data: BoardSummary[] }>(ctx, { method: 'GET', path: '/boards' })).data;
}

export async function boardDetail(ctx: ToolContext, boardId: string): Promise<BoardDetail> {
  return (await callApi<{ data: BoardDetail }>(ctx, { method: 'GET', path: `/boards/${enc(boardId)}` })).data;
}

/**
 * A board by id or name (case-insensitive; a unique partial match is accepted). Without a reference,
 * the key's only board. An unknown name lists the boards that exist.
 */
export async function resolveBoard(ctx: ToolContext, ref: string | undefined): Promise<BoardDetail> {
  if (ref?.startsWith('brd_')) return boardDetail(ctx, ref);
  const boards = await listBoards(ctx);
  if (ref === undefined) {
    if (boards.length === 1) return boardDetail(ctx, (boards[0] as BoardSummary).id);
    throw new ToolError(
      'validation_error',
      boards.length === 0 ? 'This key sees no board.' : 'Several boards: say which one.',
      `Pass \`board\` with one of: ${nameList(boards.map((b) => b.name))}.`,
    );
  }
  const wanted = ref.trim().toLowerCase();
  const exact = boards.filter((b) => b.name.toLowerCase() === wanted);
  const partial = exact.length ? exact : boards.filter((b) => b.name.toLowerCase().includes(wanted));
  if (partial.length === 1) return boardDetail(ctx, (partial[0] as BoardSummary).id);
  throw new ToolError(
    partial.length ? 'validation_error' : 'not_found',
    partial.length ? `Board "${ref}" is ambiguous.` : `No board named "${ref}".`,
    `Boards: ${nameList((partial.length ? partial : boards).map((b) => b.name))}.`,
  );
}

/** A lane of the board by id or name (case-insensitive); an unknown one lists the valid lane names. */
export function resolveLane(board: BoardDetail, ref: string): LaneSummary {
  const wanted = ref.trim().toLowerCase();
  const exact =
    board.lanes.find((l) => l.id === ref) ?? board.lanes.find((l) => l.name.toLowerCase() === wanted);
  if (exact) return exact;
  const partial = board.lanes.filter((l) => l.name.toLowerCase().includes(wanted));
  if (partial.length === 1) return partial[0] as LaneSummary;
  if (partial.length > 1) {
    throw new ToolError(
      'validation_error',
      `Lane "${ref}" of board "${board.name}" is ambiguous: it matches ${nameList(partial.map((l) => l.name))}.`,
      'Pass the whole lane name.',
    );
  }
  throw new ToolError(
    'validation_error',
    `Board "${board.name}" has no lane "${ref}".`,
    `Valid lanes: ${nameList(board.lanes.map((l) => l.name))}.`,
  );
}

export function laneName(board: BoardDetail, laneId: string): string {
  return board.lanes.find((l) => l.id === laneId)?.name ?? laneId;
}

async function taskDetail(ctx: ToolContext, boardId: string, taskId: string): Promise<TaskDetail> {
  const path = `/boards/${enc(boardId)}/tasks/${enc(taskId)}`;
  return (await callApi<{ data: TaskDetail }>(ctx, { method: 'GET', path })).data;
}

/** Tasks of one board whose shortId starts with `prefix`, archived ones included. */
async function tasksByShortId(ctx: ToolContext, boardId: string, prefix: string): Promise<TaskSummary[]> {
  const query = new URLSearchParams({ shortIdPrefix: prefix, includeArchived: 'true' });
  const path = `/boards/${enc(boardId)}/tasks?${query}`;
  return (await callApi<{ data: TaskSummary[] }>(ctx, { method: 'GET', path })).data;
}

/**
 * A task by id or shortId (a leading `#` is ignored), on the named board or on any board the key sees:
 * shortIds are unique across the service, so the agent never has to look a board up first.
 */
export async function resolveTask(
  ctx: ToolContext,
  ref: string,
  boardRef: string | undefined,
): Promise<ResolvedTask> {
  const key = ref.trim().replace(/^#/, '');
  const boards =
    boardRef !== undefined
      ? [await resolveBoard(ctx, boardRef)]
      : (await listBoards(ctx)).map((b) => ({
          id: b.id,
          name: b.name,
          lanes: [] as LaneSummary[],
          tagColors: [],
        }));
  for (const board of boards) {
    let taskId: string | undefined;
    if (key.startsWith('task_')) {
      const response = await ctx.api.request({
        method: 'GET',
        path: `/boards/${enc(board.id)}/tasks/${enc(key)}`,
      });
      if (response.status === 200) taskId = key;
    } else if (key !== '') {
      const lower = key.toLowerCase();
      taskId = (await tasksByShortId(ctx, board.id, lower)).find((t) => t.shortId === lower)?.id;
    }
    if (taskId === undefined) continue;
    const detail = board.lanes.length ? board : await boardDetail(ctx, board.id);
    return { board: detail, task: await taskDetail(ctx, board.id, taskId) };
  }
  throw new ToolError(
    'not_found',
    `No task "${ref}"${boardRef === undefined ? ' on any board this key sees' : ` on board "${boardRef}"`}.`,
    'Use find_tasks to search by title, tag or shortId prefix.',
  );
}

export function boardPath(boardId: string, ...rest: string[]): string {
  return [`/boards/${enc(boardId)}`, ...rest.map(enc)].join('/');
}
