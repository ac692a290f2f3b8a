import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { DomainError } from '../../domain/errors.js';
import { loggableError } from '../../lib/loggable-error.js';

/** Health check and the OpenAPI document: no authentication. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ database: Database }> = async (app, { database }) => {
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
        await sql`select 1`.execute(database.kysely);
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
        summary: 'This OpenAPI 3.1 document (no API key needed)',
        security: [],
        response: {
          200: Type.Object(
            { openapi: Type.String(), info: Type.Object({}, { additionalProperties: true }) },
            { additionalProperties: true, description: 'An OpenAPI 3.1 document.' },
          ),
        },
      },
    },
    // The document is generated from the route schemas; its own schema only says what it is.
    async () => app.swagger() as unknown as { openapi: string; info: Record<string, unknown> },
  );
};
