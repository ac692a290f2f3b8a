import type { FastifyInstance } from 'fastify';
import { boardEventsRoute } from '../live/board-events-route.js';
import { boardViewRoutes } from '../live/board-view-routes.js';
import { accountRoutes } from './account-routes.js';
import { agentRoutes } from './agent-routes.js';
import { uiBoardRoutes } from './board-routes.js';
import { notificationRoutes } from './notification-routes.js';
import { oidcRoutes, type SingleSignOn } from './oidc-routes.js';
import { peopleRoutes } from './people-routes.js';
import { uiSearchRoutes } from './search-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { tagColorRoutes } from './tag-color-routes.js';
import type { UiServices } from './ui-services.js';
import { uiSession } from './ui-session.js';

/**
 * The web UI's internal API under `/api/ui` (docs/ui-api.md): session cookie, Origin check, and the
 * same domain services as the external API with the signed-in person as actor. Register with
 * `{ prefix: '/api/ui' }`.
 */
export async function uiApi(
  app: FastifyInstance,
  {
    services,
    live,
    singleSignOn = null,
  }: { services: UiServices; live?: LiveStreamSettings; singleSignOn?: SingleSignOn | null },
): Promise<void> {
  // Internal and free to change: kept out of the external API's OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  await app.register(uiSession, { sessions: services.sessions });
  await app.register(accountRoutes, { sessions: services.sessions, people: services.people });
  await app.register(oidcRoutes, { singleSignOn, sessions: services.sessions, sso: services.sso });
  await app.register(peopleRoutes, { people: services.people });
  await app.register(settingsRoutes, {
    keyConsole: services.keyConsole,
    webhookConsole: services.webhookConsole,
    webhooks: services.webhooks,
  });
  await app.register(agentRoutes, { agents: services.agents, keyConsole: services.keyConsole });
  await app.register(uiBoardRoutes, { services });
  await app.register(uiSearchRoutes, { search: services.search });
  await app.register(tagColorRoutes, { tagColors: services.tagColors });
  await app.register(notificationRoutes, {
    notifications: services.notifications,
    inboxFeed: services.inboxFeed,
    sessions: services.sessions,
    ...live,
  });
  await app.register(boardViewRoutes, {
    boards: services.boards,
    boardView: services.boardView,
    activities: services.activities,
  });
  await app.register(boardEventsRoute, {
    boardEvents: services.boardEvents,
    sessionOf: (request) => request.uiSessionId,
    sessionActive: (sessionId) => services.sessions.isSignedIn(sessionId),
    ...live,
  });
}

/** Limits of the live board streams (tests shorten the heartbeat). */
export interface LiveStreamSettings {
  maxStreamsPerSession?: number;
  heartbeatMs?: number;
}
