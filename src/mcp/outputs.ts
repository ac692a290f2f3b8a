import { type TProperties, Type } from '@sinclair/typebox';

/**
 * The `structuredContent` shapes tools declare as `outputSchema`: the fields a client may rely on. Kept
 * small on purpose (every listing carries them); objects may hold more than they name.
 */
const Id = Type.String();
const More = Type.Union([Type.String(), Type.Null()], { description: 'Cursor for the next page' });

export const TaskOut = Type.Object({ id: Id, shortId: Type.String() });
const Named = Type.Object({ id: Id, name: Type.String() });
const Identified = Type.Object({ id: Id });

export const out = (properties: TProperties) => Type.Object(properties);

export const TaskResult = out({ task: TaskOut });
export const BoardsResult = out({ boards: Type.Array(Named), total: Type.Integer(), more: More });
export const LanesResult = out({ board: Named, lanes: Type.Array(Named) });
export const TasksResult = out({ tasks: Type.Array(TaskOut), total: Type.Integer(), more: More });
export const TaskDetailResult = out({
  task: TaskOut,
  todos: Type.Array(Identified),
  comments: Type.Array(Identified),
  commentTotal: Type.Integer(),
  turns: Type.Array(Identified),
  watermarks: Type.Object({}),
});
export const ClaimResult = out({ task: Type.Union([TaskOut, Type.Null()]) });
export const AssignResult = out({ task: TaskOut, unassigned: Type.Optional(Type.String()) });
export const CommentResult = out({ comment: Identified, task: TaskOut });
export const ReactionResult = out({
  comment: Type.String(),
  content: Type.String(),
  reacted: Type.Boolean(),
});
export const TodosResult = out({ todos: Type.Array(Identified), task: TaskOut });
export const TurnsResult = out({ inserted: Type.Integer(), watermarks: Type.Object({}) });
export const ActivityResult = out({
  events: Type.Array(Type.Object({ id: Id, type: Type.String(), timestamp: Type.String() })),
  cursor: Type.String({ description: 'Pass as `after` to wait for what comes next' }),
});
