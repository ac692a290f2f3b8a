import { Type } from '@sinclair/typebox';
import { ActivityResult } from '../outputs.js';
import { boardPath, listBoards, resolveBoard } from '../references.js';
import { BoardRef } from '../schemas.js';
import { callApi, defineTool, type ToolContext, ToolError } from '../tool.js';

/** The longest wait a call may ask for: MCP clients time a tool call out at about a minute. */
export const MAX_WAIT_SECONDS = 25;

interface StreamEvent {
  id: string;
  type: string;
  timestamp: string;
  actor?: { type: string; id: string; name: string };
  data: {
    board_id?: string;
    task_id?: string;
    assignee?: { id: string };
    mentions?: Array<{ id: string }>;
    [field: string]: unknown;
  };
}

interface Member {
  id: string;
  type: string;
  name: string;
}

/** "Mine": the events about the caller's tasks, its assignments, and the comments that mention it. */
async function mineFilter(ctx: ToolContext, boardIds: string[]): Promise<(event: StreamEvent) => boolean> {
  const { data } = await callApi<{ data: { member: Member | null } }>(ctx, { method: 'GET', path: '/me' });
  const me = data.member;
  if (!me) {
    throw new ToolError(
      'validation_error',
      'This API key belongs to no agent or person, so it has no work of its own.',
      'Use a key made for an agent, or call without `mine`.',
    );
  }
  const mine = new Set<string>();
  for (const boardId of boardIds) {
    const path = `${boardPath(boardId, 'tasks')}?assignee=me`;
    for (const task of (await callApi<{ data: Array<{ id: string }> }>(ctx, { method: 'GET', path })).data) {
      mine.add(task.id);
    }
  }
  return (event) => {
    const taskId = event.data.task_id;
    if (event.data.assignee?.id === me.id && taskId !== undefined) {
      if (event.type === 'task.assigned') mine.add(taskId);
      return true;
    }
    if (event.data.mentions?.some((m) => m.id === me.id)) return true;
    // Its own changes are not news to the caller.
    if (event.actor?.id === me.id) return false;
    return taskId !== undefined && mine.has(taskId);
  };
}

function eventLine(event: StreamEvent): string {
  const who = event.actor ? ` by ${event.actor.name} (${event.actor.type})` : '';
  const task = event.data.task_id ? ` task ${event.data.task_id}` : '';
  const fields = Object.entries(event.data)
    .filter(([name, value]) => !['board_id', 'task_id'].includes(name) && typeof value !== 'object')
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .slice(0, 4);
  return `- ${event.timestamp} ${event.type}${task}${who}${fields.length ? ` (${fields.join(', ')})` : ''}`;
}

export const waitForActivity = defineTool({
  name: 'wait_for_activity',
  description: `Wait (up to ${MAX_WAIT_SECONDS} s) for new activity on your boards, or only your work (mine: tasks assigned to you, comments mentioning you); returns the events and a cursor for the next call.`,
  readOnly: true,
  output: ActivityResult,
  input: Type.Object(
    {
      board: BoardRef,
      after: Type.Optional(
        Type.String({ minLength: 1, maxLength: 500, description: 'The cursor of the previous call' }),
      ),
      waitSeconds: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_WAIT_SECONDS, default: MAX_WAIT_SECONDS }),
      ),
      mine: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const board = args.board === undefined ? undefined : await resolveBoard(ctx, args.board);
    const boardIds = board ? [board.id] : (await listBoards(ctx)).map((b) => b.id);
    const wanted = args.mine === true ? await mineFilter(ctx, boardIds) : () => true;
    const deadline = Date.now() + (args.waitSeconds ?? MAX_WAIT_SECONDS) * 1000;
    let cursor = args.after;
    const events: StreamEvent[] = [];
    // Events that are not wanted move the cursor on; the wait goes on until one is, or time is up.
    do {
      const wait = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const query = new URLSearchParams({ wait: String(wait) });
      if (cursor !== undefined) query.set('after', cursor);
      if (board) query.set('boardId', board.id);
      const page = await callApi<{ data: StreamEvent[]; cursor: string }>(ctx, {
        method: 'GET',
        path: `/events?${query}`,
        timeoutMs: (wait + 15) * 1000,
      });
      events.push(...page.data.filter(wanted));
      cursor = page.cursor;
    } while (events.length === 0 && Date.now() < deadline);
    const head =
      events.length === 0
        ? `Nothing new${args.mine ? ' for you' : ''}. Call again with after "${cursor}".`
        : `${events.length} event(s); call again with after "${cursor}" for what comes next:`;
    return {
      text: [head, ...events.map(eventLine)].join('\n'),
      structured: { events, cursor: cursor ?? '' },
    };
  },
});
