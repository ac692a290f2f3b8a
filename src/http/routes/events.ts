import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/actor.js';
import type { ApiKeyService } from '../../domain/api-keys/api-key-service.js';
import { DomainError } from '../../domain/errors.js';
import { loggableError } from '../../lib/loggable-error.js';
import type { ActivityStreamService, CurrentActor, StreamEvent } from '../../live/activity-stream.js';
import { DEFAULT_STREAM_PAGE, EventPage, EventStreamQuery } from '../../schemas/activity-stream.js';
import { ERROR } from '../../schemas/errors.js';
import { OpenStreams, startEventStream, startHeartbeat } from '../live/sse.js';
import { actorOf } from '../plugins/authentication.js';

export interface EventRoutesOptions {
  activityStream: ActivityStreamService;
  /** Looks the key up again for each grant check (cached until keys change). */
  apiKeys: ApiKeyService;
  /** Comment lines that keep proxies from closing an idle stream. Default 15 s. */
  heartbeatMs?: number;
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * `GET /events`: the activity stream of integrations, as server-sent events, or with
 * `Accept: application/json` as a long poll. Parses the position and hands over to the service.
 */
export const eventRoutes: FastifyPluginAsyncTypebox<EventRoutesOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  // Long polls, which wait up to 30 s, are ended at the server's close as the streams are.
  const streams = new OpenStreams(app);

  app.get(
    '/events',
    {
      schema: {
        tags: ['Activity stream'],
        operationId: 'streamEvents',
        summary: 'Follow the activity of your boards',
        description: [
          'Every change on the boards the key can read — web UI changes included — in commit order, as server-sent events: `id: <cursor>`, `event: <type>`, `data: <event>` (the webhook payload shape, plus `origin` and `cursor`). Without a cursor the stream starts at the present; `Last-Event-ID` (or `?after=`) resumes after that event, without loss or repeat, within the retention window (at least 24 hours; older → 410 `cursor_expired`).',
          '',
          'With `Accept: application/json` it answers `{"data": [events], "cursor"}` at once when something is newer than `after`, else when something arrives or after `wait` seconds with `[]`. Pass `cursor` back as `after`.',
          '',
          'Grants are checked on every event; a revoked key’s stream ends within 2 seconds. A comment line (`: heartbeat`) comes every 15 seconds.',
        ].join('\n'),
        querystring: EventStreamQuery,
        response: {
          200: {
            description: 'The events.',
            content: {
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description:
                    'Server-sent events: `id:` the cursor, `event:` the type, `data:` the event as JSON.',
                },
              },
              'application/json': { schema: EventPage },
            },
          } as never,
          400: ERROR[400],
          401: ERROR[401],
          403: ERROR[403],
          404: ERROR[404],
          410: ERROR[410],
          429: ERROR[429],
          default: ERROR.default,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const lastEventId = headerValue(request.headers['last-event-id']);
      const after = lastEventId ?? request.query.after ?? null;
      const position = {
        after,
        afterField: lastEventId === undefined ? 'after' : 'Last-Event-ID',
        boardId: request.query.boardId ?? null,
      };
      const currentActor = keyAsItIsNow(request, actor, options.apiKeys);

      if (wantsJson(request)) {
        const waiting = new AbortController();
        const stop = () => waiting.abort();
        const untrack = streams.track(stop);
        // The connection closed before the answer (the client gave up): stop waiting for it.
        reply.raw.once('close', stop);
        try {
          return await options.activityStream.waitForEvents(
            actor,
            {
              ...position,
              waitMs: (request.query.wait ?? 0) * 1000,
              limit: request.query.limit ?? DEFAULT_STREAM_PAGE,
              signal: waiting.signal,
            },
            currentActor,
          );
        } finally {
          untrack();
          reply.raw.off('close', stop);
        }
      }

      const raw = reply.raw;
      let writing = false;
      let ended = false;
      let endedBy: 'revoked' | 'failed' | null = null;
      const early: StreamEvent[] = [];
      let heartbeat: NodeJS.Timeout | null = null;
      let stream: { close(): void } | null = null;
      let untrack = () => {};
      const end = () => {
        if (ended) return;
        ended = true;
        stream?.close();
        if (heartbeat) clearInterval(heartbeat);
        untrack();
        if (writing && !raw.writableEnded) raw.end();
      };
      const write = (event: StreamEvent) => {
        if (!ended)
          raw.write(`id: ${event.cursor}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };

      // Opened before the response starts, so a bad cursor or a missing grant is a JSON error.
      stream = await options.activityStream.open(
        actor,
        position,
        currentActor,
        (event) => (writing ? write(event) : early.push(event)),
        (reason, error) => {
          endedBy ??= reason;
          if (reason === 'failed') {
            request.log.warn({ err: loggableError(error) }, 'activity stream failed; the client resumes');
          }
          end();
        },
      );
      // Ended before the response started: answer as a request would.
      if (endedBy === 'revoked') throw new DomainError('invalid_key', 'The API key has been revoked.');
      if (endedBy) throw new DomainError('unavailable', 'The activity stream could not be read; try again.');

      startEventStream(reply);
      writing = true;
      untrack = streams.track(end);
      raw.on('close', end);
      for (const event of early.splice(0)) write(event);
      heartbeat = startHeartbeat(raw, heartbeatMs, { ended: () => ended, end });
    },
  );
};

function headerValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value === undefined || value === '' ? undefined : value;
}

/** JSON when the client asks for it and not for an event stream. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/event-stream/i.test(accept);
}

/** The key the request presented, looked up again (null once revoked); other actors stay as they are. */
function keyAsItIsNow(request: FastifyRequest, actor: Actor, apiKeys: ApiKeyService): CurrentActor {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (actor.kind !== 'api_key' || !token) return async () => actor;
  return () => apiKeys.authenticate(token);
}
