import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_TURNS_PER_BATCH, TURN_ROLES, TURN_SOURCES } from '../../domain/turns/turn-input.js';
import { DEFAULT_TURN_PAGE, MAX_TURN_PAGE, type TurnService } from '../../domain/turns/turn-service.js';
import { actorOf } from '../plugins/authentication.js';
import { AUTH_ERRORS, Id, Timestamp } from '../schemas/common.js';

const MiB = 1024 * 1024;

const Source = Type.Union(
  TURN_SOURCES.map((s) => Type.Literal(s)),
  { description: 'The capturing agent.' },
);
const Role = Type.Union(TURN_ROLES.map((r) => Type.Literal(r)));

const Watermark = Type.Object({ sourceId: Type.String(), capturedAt: Timestamp });
const Watermarks = Type.Object(
  { copilot: Type.Optional(Watermark), claude: Type.Optional(Watermark) },
  {
    description:
      'Per source, the last captured turn: the greatest (capturedAt, sourceId). Sources without turns are absent.',
  },
);

const Turn = Type.Object({
  id: Type.String(),
  source: Source,
  sourceId: Type.String(),
  role: Role,
  content: Type.String(),
  toolUseOnly: Type.Boolean(),
  capturedAt: Timestamp,
});

const TurnInput = Type.Object(
  {
    source: Source,
    sourceId: Type.String({
      description: 'Identifier of the turn within its source; at most 200 characters.',
    }),
    role: Role,
    content: Type.String({ description: 'Stored as sent; at most 1 MiB of UTF-8.' }),
    capturedAt: Type.String({
      format: 'date-time',
      description: 'Stored as ISO 8601 UTC with milliseconds.',
    }),
    toolUseOnly: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

const TaskParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id') });

export const turnRoutes: FastifyPluginAsyncTypebox<{ turns: TurnService }> = async (app, { turns }) => {
  const tags = ['Turns'];

  app.post(
    '/boards/:boardId/tasks/:taskId/turns',
    {
      // A batch of up to 100 turns of up to 1 MiB each needs more than the usual 1 MiB.
      bodyLimit: 10 * MiB,
      schema: {
        tags,
        summary: 'Store a batch of captured turns (edit); duplicates of (source, sourceId) are ignored',
        params: TaskParams,
        body: Type.Object(
          { turns: Type.Array(TurnInput, { minItems: 1, maxItems: MAX_TURNS_PER_BATCH }) },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            data: Type.Object({ inserted: Type.Integer({ description: 'Turns actually stored.' }) }),
            watermarks: Watermarks,
          }),
          ...AUTH_ERRORS,
          413: Type.Ref('ErrorResponse'),
        },
      },
    },
    async (request, reply) => {
      const { boardId, taskId } = request.params;
      const result = await turns.recordTurns(actorOf(request), boardId, taskId, request.body.turns);
      return reply.status(201).send({ data: { inserted: result.inserted }, watermarks: result.watermarks });
    },
  );

  app.get(
    '/boards/:boardId/tasks/:taskId/turns',
    {
      schema: {
        tags,
        summary: 'List turns by capture time, a page at a time',
        params: TaskParams,
        querystring: Type.Object({
          source: Type.Optional(Source),
          after: Type.Optional(
            Type.String({ format: 'date-time', description: 'Only turns captured strictly later.' }),
          ),
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: MAX_TURN_PAGE, default: DEFAULT_TURN_PAGE }),
          ),
          cursor: Type.Optional(
            Type.String({
              maxLength: 2000,
              description: 'The `cursor` of the previous page, sent with the same filters.',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            data: Type.Array(Turn),
            watermarks: Watermarks,
            cursor: Type.Union([Type.String(), Type.Null()], {
              description: 'Opaque; null when no more turns match.',
            }),
          }),
          ...AUTH_ERRORS,
        },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      const page = await turns.listTurns(actorOf(request), boardId, taskId, request.query);
      return { data: page.turns, watermarks: page.watermarks, cursor: page.cursor };
    },
  );

  app.get(
    '/boards/:boardId/tasks/:taskId/turns/watermark',
    {
      schema: {
        tags,
        summary: 'Per-source watermarks, without turn content',
        params: TaskParams,
        response: { 200: Type.Object({ watermarks: Watermarks }), ...AUTH_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { watermarks: await turns.getWatermarks(actorOf(request), boardId, taskId) };
    },
  );
};
