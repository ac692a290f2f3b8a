import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { NotificationService } from '../../domain/notifications/notification-service.js';
import type { SessionService } from '../../domain/people/session-service.js';
import type { InboxFeed } from '../../live/notification-feed.js';
import { BoardParams, Data, NoContent } from '../../schemas/common.js';
import { MarkedRead, MutedBoard, NotificationPage, UnreadCount } from '../../schemas/notifications.js';
import { OpenStreams, startEventStream, startHeartbeat } from '../live/sse.js';
import { actorOfUi } from './account-routes.js';
import { personOf } from './ui-session.js';

export interface NotificationRoutesOptions {
  notifications: NotificationService;
  inboxFeed: InboxFeed;
  sessions: SessionService;
  /** The live board streams' limits, which the inbox stream shares (tabs per session, heartbeat). */
  maxStreamsPerSession?: number;
  heartbeatMs?: number;
}

const NotificationParams = Type.Object({ notificationId: Type.String({ maxLength: 64 }) });

/**
 * The signed-in person's inbox (docs/ui-api.md, "Notifications"): the list, the unread count and its
 * live stream, read marks, and muted boards.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox<NotificationRoutesOptions> = async (
  app,
  options,
) => {
  const { notifications } = options;

  app.get(
    '/notifications',
    {
      schema: {
        querystring: Type.Object(
          {
            before: Type.Optional(Type.String({ maxLength: 64 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            unread: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: NotificationPage },
      },
    },
    async (request) => notifications.list(actorOfUi(request), request.query),
  );

  app.get(
    '/notifications/unread-count',
    { schema: { response: { 200: Data(UnreadCount) } } },
    async (request) => ({
      data: { unread: await notifications.unreadCount(actorOfUi(request)) },
    }),
  );

  app.post(
    '/notifications/read-all',
    { schema: { response: { 200: Data(MarkedRead) } } },
    async (request) => ({
      data: { marked: await notifications.markAllRead(actorOfUi(request)) },
    }),
  );

  app.post(
    '/notifications/:notificationId/read',
    { schema: { params: NotificationParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await notifications.markRead(actorOfUi(request), request.params.notificationId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/notifications/muted-boards',
    { schema: { response: { 200: Data(Type.Array(MutedBoard)) } } },
    async (request) => ({
      data: await notifications.mutedBoards(actorOfUi(request)),
    }),
  );

  const noContent = { 204: NoContent };
  app.put(
    '/boards/:boardId/mute',
    { schema: { params: BoardParams, response: noContent } },
    async (request, reply) => {
      await notifications.mute(actorOfUi(request), request.params.boardId);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/boards/:boardId/mute',
    { schema: { params: BoardParams, response: noContent } },
    async (request, reply) => {
      await notifications.unmute(actorOfUi(request), request.params.boardId);
      return reply.status(204).send(null);
    },
  );

  await app.register(inboxEventsRoute, options);
};

/**
 * `GET /notifications/events`: the person's unread count as server-sent events (`event: unread`, data
 * `{"unread": n}`), sent at once and again whenever their inbox changes on any instance. Ends on
 * sign-out or expiry (checked with each heartbeat) and when the server shuts down.
 */
const inboxEventsRoute: FastifyPluginAsyncTypebox<NotificationRoutesOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new OpenStreams(app, options.maxStreamsPerSession ?? 10);

  app.get('/notifications/events', async (request, reply) => {
    const actor = actorOfUi(request);
    const personId = personOf(request).id;
    const sessionId = request.uiSessionId ?? '';
    const release = streams.admit(sessionId, 'live streams');
    const unread = await options.notifications.unreadCount(actor).catch((error: unknown) => {
      release();
      throw error;
    });

    const raw = reply.raw;
    let ended = false;
    let reading = false;
    let again = false;
    const send = (count: number) => {
      if (!ended) raw.write(`event: unread\ndata: ${JSON.stringify({ unread: count })}\n\n`);
    };
    // One count read at a time; changes heard meanwhile cause one more read.
    const reread = () => {
      if (ended) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      options.notifications.unreadCount(actor).then(
        (count) => {
          reading = false;
          send(count);
          if (again) {
            again = false;
            reread();
          }
        },
        () => end(),
      );
    };
    const unsubscribe = options.inboxFeed.subscribe(personId, reread);
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      untrack();
      release();
      if (!raw.writableEnded) raw.end();
    };
    const heartbeat = startHeartbeat(raw, heartbeatMs, {
      ended: () => ended,
      end,
      signedIn: () => options.sessions.isSignedIn(sessionId),
    });

    startEventStream(reply);
    const untrack = streams.track(end);
    raw.on('close', end);
    send(unread);
  });
};
