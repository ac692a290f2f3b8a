import { Type } from '@sinclair/typebox';
import { Member } from './agents.js';
import { Id, Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { OptionalText, RequiredText } from './text.js';

export const Priority = Type.Integer({
  minimum: 0,
  maximum: 4,
  description: '0 none, 1 low, 2 medium, 3 high, 4 urgent.',
});
export const Tags = Type.Array(RequiredText(LIMITS.tagLength), {
  maxItems: LIMITS.tagCount,
  description: 'Trimmed, 1..50 characters each, at most 50; duplicates are removed.',
});
const Title = RequiredText(LIMITS.taskTitle, { description: 'Trimmed; 1..500 characters.' });
const Description = OptionalText(LIMITS.taskDescription, {
  description: 'Markdown, trimmed; at most 100 000 characters.',
});
const Position = Type.Union([Type.Integer(), Type.Null()], {
  description: "Index among the lane's non-archived tasks (0..n-1); null while archived.",
});

const taskSummaryFields = {
  id: Type.String(),
  shortId: Type.String({ description: 'Short lowercase identifier, unique across the service.' }),
  title: Type.String(),
  laneId: Type.String(),
  priority: Priority,
  tags: Type.Array(Type.String()),
  archived: Type.Boolean(),
  position: Position,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  assignees: Type.Array(Member, {
    maxItems: 10,
    description: 'People and agents assigned, in the order they were assigned (at most 10).',
  }),
};
const taskSummaryExample = {
  id: 'task_Hq3Zr8TbVw',
  shortId: 'k7f2m9qa',
  title: 'Retry failed webhook deliveries',
  laneId: 'lane_9xQe2LmT',
  priority: 3,
  tags: ['webhooks', 'backend'],
  archived: false,
  position: 0,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:05:12.345Z',
  assignees: [{ id: 'agt_0mf3k2x9aQ7Lw', type: 'agent', name: 'Claude runner' }],
};
export const TaskSummary = Type.Object(taskSummaryFields, { examples: [taskSummaryExample] });
export const Task = Type.Object(
  {
    ...taskSummaryFields,
    description: Type.String(),
    lastTurnAt: Type.Union([Timestamp, Type.Null()]),
  },
  {
    examples: [
      {
        ...taskSummaryExample,
        description: 'Back off 1m, 5m, 30m, 2h; then mark as failed.',
        lastTurnAt: null,
      },
    ],
  },
);
export const TaskUpdate = Type.Object(
  {
    id: Type.String(),
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    priority: Type.Optional(Priority),
    tags: Type.Optional(Type.Array(Type.String())),
    archived: Type.Optional(Type.Boolean()),
    updatedAt: Timestamp,
  },
  {
    examples: [
      { id: 'task_Hq3Zr8TbVw', priority: 4, tags: ['webhooks'], updatedAt: '2026-11-21T10:05:12.345Z' },
    ],
  },
);
export const TaskPlacement = Type.Object(
  { id: Type.String(), laneId: Type.String(), position: Type.Integer() },
  { examples: [{ id: 'task_Hq3Zr8TbVw', laneId: 'lane_Vb7Rk1Pz', position: 0 }] },
);

export const TaskListQuery = Type.Object({
  laneId: Type.Optional(Id('Only tasks of this lane')),
  includeArchived: Type.Optional(Type.Boolean({ description: '`true` includes archived tasks.' })),
  shortIdPrefix: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive shortId prefix.' }),
  ),
  assignee: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "Only tasks assigned to this member (`usr_...` or `agt_...`), or `me`: the key's agent, else the key's person (a key of nobody → 400).",
    }),
  ),
});

export const CreateTaskBody = Type.Object(
  {
    title: Title,
    laneId: Id('A lane of this board'),
    description: Type.Optional(Description),
    priority: Type.Optional(Priority),
    tags: Type.Optional(Tags),
  },
  {
    additionalProperties: false,
    examples: [
      { title: 'Retry failed webhook deliveries', laneId: 'lane_9xQe2LmT', priority: 3, tags: ['webhooks'] },
    ],
  },
);

export const UpdateTaskBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    priority: Type.Optional(Priority),
    tags: Type.Optional(Tags),
    archived: Type.Optional(Type.Boolean({ description: 'Archiving takes the task out of its lane order.' })),
  },
  { additionalProperties: false, examples: [{ priority: 4, tags: ['webhooks'] }, { archived: true }] },
);

export const MoveTaskBody = Type.Object(
  {
    laneId: Id('The target lane, of this board'),
    position: Type.Optional(Type.Integer({ minimum: 0, description: 'Omitted or past the end: appended.' })),
  },
  { additionalProperties: false, examples: [{ laneId: 'lane_Vb7Rk1Pz', position: 0 }] },
);
