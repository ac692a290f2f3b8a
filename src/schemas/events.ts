import { type TProperties, Type } from '@sinclair/typebox';
import { StringEnum, Timestamp } from './common.js';
import { Todo } from './todos.js';

/**
 * The event types a webhook's `events` list may name: the specification's 14, then the contract's
 * assignment events.
 */
export const WEBHOOK_EVENT_TYPES = [
  'board.created',
  'board.deleted',
  'lane.created',
  'lane.updated',
  'lane.deleted',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.moved',
  'comment.created',
  'comment.deleted',
  'todo.created',
  'todo.updated',
  'todo.deleted',
  'task.assigned',
  'task.unassigned',
] as const;

/** Delivered only to webhooks whose `events` is `["*"]`; naming them in a list is refused. */
export const WILDCARD_ONLY_EVENT_TYPES = [
  'asset.created',
  'asset.deleted',
  'reaction.created',
  'reaction.deleted',
] as const;

/** Every `type` a delivery can carry. */
export const DELIVERED_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...WILDCARD_ONLY_EVENT_TYPES, 'ping'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];

/** A webhook's `events` as stored: known type names, or `["*"]`. */
// Typed as string[] in TypeScript: a stored list is read back as text, and clients should still
// tolerate names added later; the document lists today's names.
export const EventList = Type.Unsafe<string[]>(
  Type.Array(StringEnum([...WEBHOOK_EVENT_TYPES, '*']), {
    description: 'Event types the webhook receives, or `["*"]` for every event.',
  }),
);

/** A webhook's `events` as sent: known type names (duplicates dropped), or exactly `["*"]`. */
export const EventFilter = Type.Array(StringEnum([...WEBHOOK_EVENT_TYPES, '*']), {
  minItems: 1,
  description:
    'Event types to receive (duplicates are dropped), or exactly `["*"]` for every event, asset and reaction events included.',
  examples: [['task.created', 'task.moved'], ['*']],
  // "*" stands alone: a list holding it holds nothing else.
  if: { contains: { const: '*' } },
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here.
  then: {
    maxItems: 1,
    description: 'must be exactly ["*"] to receive all events; do not combine "*" with types.',
  },
});

const BoardId = Type.String({
  description: 'The board the change happened on.',
  examples: ['brd_4tq8Zk2mWf'],
});

const MemberName = { id: Type.String(), name: Type.String() };

/** Who caused an event: an agent (through any of its keys), or a key (and the person it belongs to). */
export const WebhookActor = Type.Union(
  [
    Type.Object(
      { type: Type.Literal('agent'), ...MemberName },
      { description: 'An agent, through one of its API keys: `id` is the agent (`agt_...`).' },
    ),
    Type.Object(
      {
        type: Type.Literal('key'),
        ...MemberName,
        person: Type.Optional(
          Type.Object(MemberName, { description: 'The person the key belongs to (`usr_...`), if any.' }),
        ),
      },
      { description: "An API key that belongs to no agent: `id` and `name` are the key's." },
    ),
  ],
  {
    description: "Who made the change. For `ping`, the webhook's own key (its agent when it has one).",
    examples: [
      { type: 'agent', id: 'agt_0mf3k2x9aQ7Lw', name: 'Claude runner' },
      { type: 'key', id: 'key_Vb7Rk1PzQw', name: 'CI', person: { id: 'usr_2kd9', name: 'Ada' } },
    ],
  },
);

/** One delivery body: `{id, type, timestamp, actor, data}`. */
function payload<K extends DeliveredEventType>(type: K, data: TProperties, description: string) {
  return Type.Object(
    {
      id: Type.String({
        description: 'Event id (`evt_...`), the same on every delivery of the event.',
        examples: ['evt_W3nB8vCx1Lq'],
      }),
      type: Type.Literal(type),
      timestamp: Timestamp,
      actor: WebhookActor,
      data: Type.Object(data),
    },
    { description },
  );
}

const taskIds = { board_id: BoardId, task_id: Type.String() };
const AssetSummary = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});
const Member = Type.Object({
  id: Type.String({ description: '`usr_...` for a person, `agt_...` for an agent.' }),
  type: StringEnum(['person', 'agent']),
  name: Type.String(),
});
const Assignee = Type.Object(
  {
    id: Type.String({ description: '`usr_...` for a person, `agt_...` for an agent.' }),
    type: StringEnum(['person', 'agent']),
    name: Type.String(),
  },
  { description: 'The member assigned or unassigned.' },
);
const Reaction = StringEnum(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']);

/** The body of each event type, keyed by type; the OpenAPI `webhooks` section is built from these. */
export const EVENT_PAYLOADS = {
  'board.created': payload(
    'board.created',
    { board_id: BoardId, board: Type.Object({ id: Type.String(), name: Type.String() }) },
    'A board was created.',
  ),
  'board.deleted': payload(
    'board.deleted',
    { board_id: BoardId },
    'A board and everything in it was deleted.',
  ),
  'lane.created': payload(
    'lane.created',
    { board_id: BoardId, lane_id: Type.String(), name: Type.String(), position: Type.Integer() },
    'A lane was appended.',
  ),
  'lane.updated': payload(
    'lane.updated',
    { board_id: BoardId, lane_id: Type.String(), name: Type.String(), position: Type.Integer() },
    'A lane was renamed or moved.',
  ),
  'lane.deleted': payload(
    'lane.deleted',
    { board_id: BoardId, lane_id: Type.String() },
    'A lane was deleted.',
  ),
  'task.created': payload(
    'task.created',
    { ...taskIds, title: Type.String(), laneId: Type.String() },
    'A task was created.',
  ),
  'task.updated': payload(
    'task.updated',
    {
      ...taskIds,
      changes: Type.Object(
        {
          title: Type.Optional(Type.String()),
          description: Type.Optional(Type.String()),
          priority: Type.Optional(Type.Integer()),
          tags: Type.Optional(Type.Array(Type.String())),
          archived: Type.Optional(Type.Boolean()),
        },
        { description: 'Each changed field with its new value.' },
      ),
    },
    'Fields of a task changed.',
  ),
  'task.deleted': payload('task.deleted', taskIds, 'A task was deleted.'),
  'task.moved': payload(
    'task.moved',
    {
      ...taskIds,
      laneId: Type.String(),
      position: Type.Integer(),
      fromLaneId: Type.String(),
      fromPosition: Type.Integer(),
    },
    'A task moved within its lane or to another lane.',
  ),
  'comment.created': payload(
    'comment.created',
    {
      ...taskIds,
      comment_id: Type.String(),
      authorName: Type.String(),
      source: StringEnum(['api', 'agent']),
      mentions: Type.Array(Member, {
        description:
          'The people and agents the comment mentions (`@name`; not inside code or an e-mail address).',
      }),
    },
    'A comment was added.',
  ),
  'comment.deleted': payload(
    'comment.deleted',
    { ...taskIds, comment_id: Type.String() },
    'A comment was deleted.',
  ),
  'todo.created': payload(
    'todo.created',
    { ...taskIds, todo_id: Type.String(), todo: Todo },
    'A todo was added.',
  ),
  'todo.updated': payload(
    'todo.updated',
    {
      ...taskIds,
      todo_id: Type.String(),
      todo: Todo,
      reordered: Type.Optional(
        Type.Literal(true, {
          description:
            'Present when the change is the todo’s order, by a reorder (one event per todo moved).',
        }),
      ),
    },
    'A todo changed (text, done, iteration, or its order by a reorder).',
  ),
  'todo.deleted': payload('todo.deleted', { ...taskIds, todo_id: Type.String() }, 'A todo was deleted.'),
  'task.assigned': payload(
    'task.assigned',
    { ...taskIds, assignee: Assignee },
    'A person or agent was assigned to a task (an assignment already in place fires nothing).',
  ),
  'task.unassigned': payload(
    'task.unassigned',
    { ...taskIds, assignee: Assignee },
    'A person or agent was unassigned from a task.',
  ),
  'asset.created': payload(
    'asset.created',
    { ...taskIds, asset: AssetSummary },
    'A file was attached to a task (only to `["*"]` webhooks).',
  ),
  'asset.deleted': payload(
    'asset.deleted',
    { ...taskIds, asset_id: Type.String() },
    'An attached file was deleted (only to `["*"]` webhooks).',
  ),
  'reaction.created': payload(
    'reaction.created',
    { ...taskIds, comment_id: Type.String(), content: Reaction },
    'A reaction was added to a comment (only to `["*"]` webhooks).',
  ),
  'reaction.deleted': payload(
    'reaction.deleted',
    { ...taskIds, comment_id: Type.String(), content: Reaction },
    'A reaction was removed from a comment (only to `["*"]` webhooks).',
  ),
  ping: payload(
    'ping',
    { board_id: Type.Null(), webhook_id: Type.String() },
    'Sent by `POST /webhooks/{id}/ping`, whatever the filter.',
  ),
} as const;
