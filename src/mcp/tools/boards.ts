import { Type } from '@sinclair/typebox';
import { BoardsResult, LanesResult } from '../outputs.js';
import { boardDetail, listBoards, resolveBoard } from '../references.js';
import { Cursor, decodeCursor, encodeCursor, Limit } from '../schemas.js';
import { defineTool } from '../tool.js';

export const findBoards = defineTool({
  name: 'find_boards',
  description: 'List boards this key sees (optionally by name), with lanes and your permission.',
  readOnly: true,
  output: BoardsResult,
  input: Type.Object(
    {
      query: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name' })),
      limit: Limit,
      cursor: Cursor,
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const wanted = args.query?.trim().toLowerCase() ?? '';
    const boards = (await listBoards(ctx)).filter((b) => b.name.toLowerCase().includes(wanted));
    const offset = decodeCursor(args.cursor);
    const limit = args.limit ?? 20;
    const page = boards.slice(offset, offset + limit);
    const more = offset + limit < boards.length ? encodeCursor(offset + limit) : null;
    const details = await Promise.all(page.map((b) => boardDetail(ctx, b.id)));
    const items = page.map((b, i) => ({ ...b, lanes: details[i]?.lanes ?? [] }));
    const lines = items.map(
      (b) =>
        `${b.name} (${b.id}, ${b.permission}) lanes: ${b.lanes.map((l) => `${l.name} [${l.taskCount}]`).join(', ') || 'none'}`,
    );
    const note = `${boards.length} board(s)${more ? `; cursor "${more}" for more` : ''}.`;
    return {
      text: [note, ...lines].join('\n'),
      structured: { boards: items, total: boards.length, more },
    };
  },
});

export const listLanes = defineTool({
  name: 'list_lanes',
  description: "A board's lanes in order, with task counts.",
  readOnly: true,
  output: LanesResult,
  input: Type.Object(
    {
      board: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Board name or id (optional with one board)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  async run(args, ctx) {
    const board = await resolveBoard(ctx, args.board);
    const lines = board.lanes.map((l, i) => `${i}. ${l.name} (${l.id}): ${l.taskCount} task(s)`);
    return {
      text: [`Board "${board.name}" (${board.id}):`, ...(lines.length ? lines : ['no lanes'])].join('\n'),
      structured: { board: { id: board.id, name: board.name }, lanes: board.lanes },
    };
  },
});
