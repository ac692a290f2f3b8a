import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DomainError } from '../../domain/errors.js';
import { loggableError } from '../../lib/loggable-error.js';
import { ERROR } from '../../schemas/errors.js';

/** Health check and the OpenAPI document: no authentication. */
export const systemRoutes: FastifyPluginAsyncTypebox<{
  /** Resolves when the database answers (the SQL lives in db/). */
  checkDatabase: () => Promise<void>;
}> = async (app, { checkDatabase }) => {
  app.get(
    '/healthz',
    {
      schema: {
        hide: true,
        response: {
          200: Type.Object({ status: Type.Literal('ok') }),
          503: Type.Ref('ErrorResponse'),
        },
      },
    },
    async (request) => {
      try {
        await checkDatabase();
        return { status: 'ok' as const };
      } catch (err) {
        request.log.error({ err: loggableError(err) }, 'health check: database did not answer');
        throw new DomainError('unavailable', 'The database does not answer.');
      }
    },
  );

  app.get(
    '/api/ext/v1/openapi.json',
    {
      config: { auth: false },
      schema: {
        tags: ['Meta'],
        operationId: 'getOpenApiDocument',
        summary: 'Get this OpenAPI document',
        description:
          'This OpenAPI 3.1 document, generated from the schemas the server validates with. No API key needed.',
        security: [],
        response: {
          200: Type.Object(
            { openapi: Type.String(), info: Type.Object({}, { additionalProperties: true }) },
            { additionalProperties: true, description: 'An OpenAPI 3.1 document.' },
          ),
          // Counted per address like every /api/ext/v1 request, so it can answer 429 too.
          429: ERROR[429],
          default: ERROR.default,
        },
      },
    },
    // The document is generated from the route schemas; its own schema only says what it is.
    async () => app.swagger() as unknown as { openapi: string; info: Record<string, unknown> },
  );
};
