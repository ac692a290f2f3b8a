import { Type } from '@sinclair/typebox';
import { CreateCommentBody } from '../schemas/comments.js';
import { CreateTaskBody, MoveTaskBody, UpdateTaskBody } from '../schemas/tasks.js';
import { CreateTodoBody, ReorderTodosBody, UpdateTodoBody } from '../schemas/todos.js';
import { RecordTurnsBody } from '../schemas/turns.js';
import { ToolError } from './tool.js';

/*
 * Tool fields are the external API's request-body fields, taken from the shared schemas
 * (src/schemas), so the two cannot drift; test/mcp/tool-schemas.test.ts also compares every mapped
 * tool with the OpenAPI document. Only references differ: the tools take names and shortIds.
 */

export const PRIORITY_HINT = 'Priorities: 0 none, 1 low, 2 medium, 3 high, 4 urgent.';

export const TaskFields = CreateTaskBody.properties;
export const TaskUpdateFields = UpdateTaskBody.properties;
export const MoveFields = MoveTaskBody.properties;
export const CommentFields = CreateCommentBody.properties;
export const TodoFields = CreateTodoBody.properties;
export const TodoUpdateFields = UpdateTodoBody.properties;
export const ReorderFields = ReorderTodosBody.properties;
export const TurnFields = RecordTurnsBody.properties;

/* References: what the agent sees (names, shortIds) rather than ids it would have to look up. */

export const TaskRef = Type.String({ minLength: 1, maxLength: 100, description: 'shortId or id' });
export const BoardRef = Type.Optional(
  Type.String({ minLength: 1, maxLength: 200, description: 'Board name or id (optional)' }),
);
export const LaneRef = Type.String({ minLength: 1, maxLength: 200, description: 'Lane name or id' });
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Same key on a retry = no second write (24 h)',
  }),
);
export const Cursor = Type.Optional(
  Type.String({ maxLength: 200, description: '`more` of the previous page' }),
);
export const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 }));

/** Opaque page cursors: the offset into the ordered result, base64url so agents do not edit them. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) {
    throw new ToolError(
      'validation_error',
      '`cursor` is not one this server gave.',
      'Pass the `more` value of the previous answer, or no cursor for the first page.',
    );
  }
  return Number(match[1]);
}
