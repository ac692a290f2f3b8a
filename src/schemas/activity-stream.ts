import { Type } from '@sinclair/typebox';
import { Id, StringEnum, Timestamp } from './common.js';
import { WEBHOOK_EVENT_TYPES, WebhookActor, WILDCARD_ONLY_EVENT_TYPES } from './events.js';

export const MAX_WAIT_SECONDS = 30;
export const MAX_STREAM_PAGE = 1000;
export const DEFAULT_STREAM_PAGE = 100;

const Cursor = Type.String({
  maxLength: 200,
  description:
    'Opaque position in the stream: the `id:` of an event (`Last-Event-ID`), or the `cursor` of a JSON answer.',
  examples: ['YTE6MTIzNDU'],
});

export const EventStreamQuery = Type.Object(
  {
    after: Type.Optional(Cursor),
    boardId: Type.Optional(Id('Only this board’s events (the key must be able to read it).')),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description:
          'JSON form only: seconds to wait for an event when none is newer than `after` (0..30, default 0).',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_STREAM_PAGE,
        description: `JSON form only: at most this many events per answer (1..${MAX_STREAM_PAGE}, default ${DEFAULT_STREAM_PAGE}).`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** Who made a change: a webhook's actor for the API and MCP, the person for the web UI. */
export const StreamActor = Type.Union(
  [
    WebhookActor,
    Type.Object(
      { type: Type.Literal('person'), id: Type.String(), name: Type.String() },
      { description: 'A person signed in to the web UI (`usr_...`).' },
    ),
    Type.Object(
      { type: Type.Literal('system'), id: Type.Null(), name: Type.String() },
      { description: 'The operator at the command line.' },
    ),
  ],
  { description: 'Who made the change.' },
);

/** One event: the webhook payload shape (`{id, type, timestamp, actor, data}`) plus origin and cursor. */
export const StreamEvent = Type.Object(
  {
    id: Type.String({
      description: 'Event id (`evt_...`), the same every time this change is read from the stream.',
    }),
    type: StringEnum([...WEBHOOK_EVENT_TYPES, ...WILDCARD_ONLY_EVENT_TYPES], {
      description:
        'The webhook event types, asset and reaction events included, whoever made the change. New types may be added: skip those you do not know.',
    }),
    timestamp: Timestamp,
    actor: StreamActor,
    origin: StringEnum(['api', 'mcp', 'ui', 'cli'], { description: 'Where the change was made.' }),
    cursor: Cursor,
    data: Type.Object(
      { board_id: Type.String({ description: 'The board the change happened on.' }) },
      {
        additionalProperties: true,
        description: 'As in the webhook payload of the same type (see the `webhooks` section).',
      },
    ),
  },
  {
    description: 'One change on a board the key can read.',
    examples: [
      {
        id: 'evt_YTE6MTIzNDU',
        type: 'task.moved',
        timestamp: '2026-11-21T10:00:00.000Z',
        actor: { type: 'person', id: 'usr_2kd9', name: 'Ada' },
        origin: 'ui',
        cursor: 'YTE6MTIzNDU',
        data: {
          board_id: 'brd_4tq8Zk2mWf',
          task_id: 'task_8Hn2',
          laneId: 'lane_2',
          position: 0,
          fromLaneId: 'lane_1',
          fromPosition: 3,
        },
      },
    ],
  },
);

export const EventPage = Type.Object({
  data: Type.Array(StreamEvent, { description: 'Oldest first; empty when the wait ran out.' }),
  cursor: Type.String({
    description:
      'Pass as `after` next time: the last event’s cursor, or the `after` sent (the present position when none was).',
  }),
});
