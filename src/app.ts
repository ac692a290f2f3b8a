import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { type Database, pingDatabase } from './db/database.js';
import { compressJson } from './http/compress-json.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './http/error-handler.js';
import { lazyRequestLogger } from './http/lazy-request-logger.js';
import { apiReference } from './http/plugins/api-reference.js';
import { authentication } from './http/plugins/authentication.js';
import { idempotency } from './http/plugins/idempotency.js';
import { openApi } from './http/plugins/openapi.js';
import { rateLimiting } from './http/plugins/rate-limit.js';
import { echoRequestId, requestId } from './http/request-id.js';
import { assetRoutes } from './http/routes/assets.js';
import { boardRoutes } from './http/routes/boards.js';
import { commentRoutes } from './http/routes/comments.js';
import { eventRoutes } from './http/routes/events.js';
import { laneRoutes } from './http/routes/lanes.js';
import { mcpRoutes } from './http/routes/mcp.js';
import { memberRoutes } from './http/routes/members.js';
import { type MetricsEndpoint, metricsRoutes } from './http/routes/metrics.js';
import { reactionRoutes } from './http/routes/reactions.js';
import { searchRoutes } from './http/routes/search.js';
import { systemRoutes } from './http/routes/system.js';
import { taskRoutes } from './http/routes/tasks.js';
import { todoRoutes } from './http/routes/todos.js';
import { turnRoutes } from './http/routes/turns.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import type { SingleSignOn } from './http/ui/oidc-routes.js';
import { type LiveStreamSettings, uiApi } from './http/ui/ui-api.js';
import { installJsonBodyParser, validatorCompiler } from './http/validation.js';
import { webUi } from './http/web-ui.js';
import type { Services } from './services.js';

export interface AppDeps {
  database: Database;
  services: Services;
  rateLimit: { max: number; windowMs: number };
  redis?: Redis | null;
  logger?: FastifyServerOptions['logger'];
  /** The runtime's pino logger (takes precedence over `logger`). */
  loggerInstance?: FastifyBaseLogger;
  trustProxy?: boolean | number | string[];
  /** Live board stream limits (default: 10 per session, 15 s heartbeat). */
  liveStreams?: LiveStreamSettings;
  /** OpenID Connect sign-in of the web UI (LANEBOARD_OIDC_*); absent or null: off. */
  singleSignOn?: SingleSignOn | null;
  /** `GET /metrics` and the request timings behind it; absent or null: off (404). */
  metrics?: MetricsEndpoint | null;
}

const MiB = 1024 * 1024;

/** A hop count means: trust that many proxies nearest to us (Fastify's types only take it as a function). */
function fastifyTrustProxy(
  setting: boolean | number | string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** The HTTP application without `listen`, so tests drive it with `inject` and main.ts serves it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? false }),
    bodyLimit: MiB,
    trustProxy: fastifyTrustProxy(deps.trustProxy ?? false),
    // A client that trickles its request is cut off (408) instead of holding a connection forever.
    requestTimeout: 60_000,
    clientErrorHandler,
    frameworkErrors,
    // Requests that reach a closing server on an open connection are served (with Connection: close)
    // instead of Fastify's own 503 body, which is not in the error format.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Ids come from genReqId alone (Fastify would otherwise take any X-Request-Id value as it is).
    requestIdHeader: false,
    genReqId: requestId,
    childLoggerFactory: lazyRequestLogger,
  }).withTypeProvider<TypeBoxTypeProvider>();

  echoRequestId(app);

  app.setValidatorCompiler(validatorCompiler);
  // Only JSON bodies are accepted: anything else is 415 unsupported_media_type.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  installErrorHandling(app);
  // First, so that its request-duration hook sees every route registered after it.
  await app.register(metricsRoutes, { endpoint: deps.metrics ?? null });

  await app.register(openApi);
  await app.register(authentication, { apiKeys: deps.services.apiKeys });
  await app.register(rateLimiting, { ...deps.rateLimit, redis: deps.redis ?? null });
  await app.register(idempotency, { service: deps.services.idempotency });
  await app.register(compressJson);
  await app.register(systemRoutes, { checkDatabase: () => pingDatabase(deps.database) });
  await apiReference(app);

  await app.register(
    async (api) => {
      await api.register(boardRoutes, { boards: deps.services.boards });
      await api.register(laneRoutes, { lanes: deps.services.lanes });
      await api.register(taskRoutes, { tasks: deps.services.tasks });
      await api.register(commentRoutes, { comments: deps.services.comments });
      await api.register(todoRoutes, { todos: deps.services.todos });
      await api.register(turnRoutes, { turns: deps.services.turns });
      await api.register(assetRoutes, { assets: deps.services.assets });
      await api.register(reactionRoutes, { reactions: deps.services.reactions });
      await api.register(webhookRoutes, { webhooks: deps.services.webhooks });
      await api.register(eventRoutes, {
        activityStream: deps.services.activityStream,
        apiKeys: deps.services.apiKeys,
      });
      await api.register(searchRoutes, { search: deps.services.search });
      await api.register(memberRoutes, { agents: deps.services.agents });
    },
    { prefix: '/api/ext/v1' },
  );
  await app.register(mcpRoutes, { root: app });
  await app.register(uiApi, {
    prefix: '/api/ui',
    services: deps.services,
    ...(deps.liveStreams ? { live: deps.liveStreams } : {}),
    singleSignOn: deps.singleSignOn ?? null,
  });
  await app.register(webUi);
  return app;
}
