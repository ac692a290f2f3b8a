import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain/errors.js';

/** What the HTTP layer needs of the metrics (src/metrics/metrics.ts; the composition root hands it in). */
export interface RequestMetrics {
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  render(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsEndpoint {
  /** LANEBOARD_METRICS_TOKEN: a scrape sends `Authorization: Bearer <token>`. */
  token: string;
  metrics: RequestMetrics;
}

/** Route label of a request no route matched (unknown URLs must not make a series each). */
export const UNMATCHED_ROUTE = '(unmatched)';

const BEARER = /^bearer\s+(\S+)\s*$/i;

function isEventStream(contentType: number | string | string[] | undefined): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/event-stream');
}

/** Compared as digests: equal lengths for timingSafeEqual, and the time does not depend on the token's. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * `GET /metrics` in Prometheus's text format, and the request-duration hook that feeds it. Without a
 * token (metrics off) the path is an unknown route's 404, registered all the same so that the web UI's
 * catch-all does not answer it with its page.
 */
export const metricsRoutes = fp<{ endpoint: MetricsEndpoint | null }>(
  async (app: FastifyInstance, { endpoint }) => {
    if (endpoint === null) {
      app.get('/metrics', { config: { auth: false }, schema: { hide: true } }, (_request, reply) =>
        reply.callNotFound(),
      );
      return;
    }
    const { metrics } = endpoint;
    const expected = digest(endpoint.token);

    // Callback style: an async hook would cost every request promise hops for nothing.
    app.addHook('onResponse', (request, reply, done) => {
      // A live stream's "duration" is how long a tab stayed open: laneboard_live_streams_open counts them.
      if (isEventStream(reply.raw.getHeader('content-type'))) return done();
      const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
      metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    app.get('/metrics', { config: { auth: false }, schema: { hide: true } }, async (request, reply) => {
      const header = request.headers.authorization;
      const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
      if (token === undefined || !timingSafeEqual(digest(token), expected)) {
        reply.header('WWW-Authenticate', 'Bearer');
        throw header === undefined || header === ''
          ? new DomainError(
              'missing_auth',
              'Send the metrics token in the header `Authorization: Bearer <LANEBOARD_METRICS_TOKEN>`.',
            )
          : new DomainError('invalid_key', 'The metrics token is not valid.');
      }
      const { contentType, body } = await metrics.render();
      return reply.header('Content-Type', contentType).header('Cache-Control', 'no-store').send(body);
    });
  },
  { name: 'laneboard-metrics' },
);
