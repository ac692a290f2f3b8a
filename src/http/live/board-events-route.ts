import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { invalid } from '../../domain/errors.js';
import { loggableError } from '../../lib/loggable-error.js';
import type { BoardEventsService, LiveEvent } from '../../live/board-events.js';
import { BoardParams } from '../../schemas/common.js';
import { actorOf } from '../plugins/authentication.js';
import { OpenStreams, startEventStream, startHeartbeat } from './sse.js';

export interface BoardEventsRouteOptions {
  boardEvents: BoardEventsService;
  /** The session a request came with (the per-session stream limit counts by it). */
  sessionOf(request: FastifyRequest): string | null;
  /** Whether the session is still signed in, without extending it (checked at every heartbeat). */
  sessionActive(sessionId: string): Promise<boolean>;
  /** Streams one session may hold open (tabs). Default 10. */
  maxStreamsPerSession?: number;
  /** Comment lines that keep proxies from closing an idle stream, and the session re-check. Default 15 s. */
  heartbeatMs?: number;
}

/**
 * `GET /boards/:boardId/events`: the board's live stream as server-sent events (one per tab). Events
 * are the board's activities (`id` = activity id, `event` = type), then `reset` when the position the
 * client resumes from is unknown or past retention. Ends on sign-out or expiry (checked with each
 * heartbeat), on the board's deletion, and when the server shuts down.
 */
export const boardEventsRoute: FastifyPluginAsyncTypebox<BoardEventsRouteOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new OpenStreams(app, options.maxStreamsPerSession ?? 10);

  app.get(
    '/boards/:boardId/events',
    {
      schema: {
        params: BoardParams,
        querystring: Type.Object(
          { after: Type.Optional(Type.Integer({ minimum: 0 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const sessionId = options.sessionOf(request);
      const after = resumePosition(request.headers['last-event-id'], request.query.after);
      const release = streams.admit(sessionId ?? '', 'live board streams');

      const raw = reply.raw;
      let writing = false;
      const early: LiveEvent[] = [];
      let ended = false;
      let heartbeat: NodeJS.Timeout | null = null;
      let stream: { close(): void } | null = null;
      let untrack = () => {};
      const end = () => {
        if (ended) return;
        ended = true;
        stream?.close();
        if (heartbeat) clearInterval(heartbeat);
        untrack();
        release();
        if (writing && !raw.writableEnded) raw.end();
      };
      const write = (event: LiveEvent) => {
        if (ended) return;
        raw.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
        if (event.type === 'board.deleted') end();
      };

      try {
        // Opened before the response starts, so an unknown board or a missing grant is a JSON error.
        stream = await options.boardEvents.open(
          actor,
          request.params.boardId,
          after,
          (event) => (writing ? write(event) : early.push(event)),
          (error) => {
            request.log.warn(
              { err: loggableError(error) },
              'live board stream failed; the client reconnects',
            );
            end();
          },
        );
      } catch (error) {
        end();
        throw error;
      }

      startEventStream(reply);
      writing = true;
      untrack = streams.track(end);
      raw.on('close', end);
      for (const event of early.splice(0)) write(event);
      heartbeat = startHeartbeat(raw, heartbeatMs, {
        ended: () => ended,
        end,
        ...(sessionId === null ? {} : { signedIn: () => options.sessionActive(sessionId) }),
      });
    },
  );
};

/** `Last-Event-ID` (a reconnecting EventSource) wins over `?after=` (the first connection). */
function resumePosition(header: string | string[] | undefined, after: number | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return after ?? null;
  if (!/^\d{1,15}$/.test(value)) throw invalid('Last-Event-ID', 'must be an activity id.');
  return Number(value);
}
