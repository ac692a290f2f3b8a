import { Type } from '@sinclair/typebox';
import { TurnsResult } from '../outputs.js';
import { boardPath, resolveTask } from '../references.js';
import { BoardRef, TaskRef, TurnFields } from '../schemas.js';
import { callApi, defineTool } from '../tool.js';

export const pushTurns = defineTool({
  name: 'push_turns',
  description:
    'Store conversation turns on a task (1..100; a repeated source+sourceId is ignored, so retries are safe).',
  readOnly: false,
  output: TurnsResult,
  idempotent: true,
  rest: [{ operation: 'POST /api/ext/v1/boards/{boardId}/tasks/{taskId}/turns', at: [] }],
  input: Type.Object(
    { task: TaskRef, board: BoardRef, turns: TurnFields.turns },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const { board, task } = await resolveTask(ctx, args.task, args.board);
    const response = await callApi<{ data: { inserted: number }; watermarks: Record<string, unknown> }>(ctx, {
      method: 'POST',
      path: boardPath(board.id, 'tasks', task.id, 'turns'),
      body: { turns: args.turns },
    });
    const ignored = args.turns.length - response.data.inserted;
    return {
      text: `Stored ${response.data.inserted} turn(s) on ${task.shortId}${ignored ? ` (${ignored} already there)` : ''}.`,
      structured: { inserted: response.data.inserted, watermarks: response.watermarks },
    };
  },
});
