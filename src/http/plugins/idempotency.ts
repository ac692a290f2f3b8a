import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { IdempotencyClaim, IdempotencyService } from '../../domain/idempotency/idempotency-service.js';
import { IDEMPOTENT_ERRORS } from '../../schemas/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: IdempotencyClaim | null;
  }
}

const HEADER = 'idempotency-key';

const IdempotencyHeaders = Type.Object({
  [HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Makes a retry safe: the same key with the same request within 24 h returns the first response (with `Idempotent-Replayed: true`) instead of running again.',
    }),
  ),
});

/** A route option's hooks as a list (Fastify takes one hook or several). */
function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** The request as a retry must repeat it: method, path and body. */
function fingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * `Idempotency-Key` on every POST of the external API. The key is checked after authentication and
 * body validation (an invalid request never claims a key), the first response of a 2xx is stored, and
 * anything else releases the key.
 */
export const idempotency = fp<{ service: IdempotencyService }>(
  async (app: FastifyInstance, { service }) => {
    app.decorateRequest('idempotencyClaim', null);

    // Without an Idempotency-Key header (most requests) the hooks pass through without a promise.
    const claimHook: preHandlerHookHandler = (request, reply, done) => {
      const key = request.headers[HEADER];
      if (typeof key !== 'string' || !request.actor) return done();
      claimOrReplay(request, reply, key).then(() => done(), done);
    };

    async function claimOrReplay(request: FastifyRequest, reply: FastifyReply, key: string) {
      if (!request.actor) return;
      const start = await service.begin(
        request.actor,
        key,
        fingerprint(request.method, request.url, request.body),
      );
      if (start === null) return;
      if (start.kind === 'first') {
        request.idempotencyClaim = start.claim;
        return;
      }
      reply.header('idempotent-replayed', 'true');
      reply.status(start.statusCode).type('application/json; charset=utf-8');
      reply.send(start.body);
    }

    const storeHook: onSendHookHandler = (request, reply, payload, done) => {
      const claim = request.idempotencyClaim;
      if (claim === null) return done(null, payload);
      request.idempotencyClaim = null;
      const settled =
        reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string'
          ? service.complete(claim, reply.statusCode, payload)
          : service.release(claim);
      settled.then(() => done(null, payload), done);
    };

    // Declared on each POST route, so it is validated like any header and shown in the OpenAPI document.
    // The hooks are the POST routes' own: reads (most requests) run no preHandler or onSend hook at all.
    app.addHook('onRoute', (route) => {
      if (route.method !== 'POST' || !route.url.startsWith('/api/ext/v1')) return;
      if (route.config?.auth === false) return;
      const schema: FastifySchema = route.schema ?? {};
      route.schema = {
        ...schema,
        headers: IdempotencyHeaders,
        ...(schema.response ? { response: { ...(schema.response as object), ...IDEMPOTENT_ERRORS } } : {}),
      };
      route.preHandler = [claimHook, ...hooksOf(route.preHandler)];
      route.onSend = [...hooksOf(route.onSend), storeHook];
    });
  },
  { name: 'idempotency', dependencies: ['authentication'] },
);
