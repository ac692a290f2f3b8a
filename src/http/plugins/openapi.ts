import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorResponse } from '../schemas/common.js';

/** Generates the OpenAPI 3.1 document from the route schemas that validate and serialise the API. */
export const openApi = fp(
  async (app: FastifyInstance) => {
    app.addSchema(ErrorResponse);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Laneboard external API',
          version: '1.0.0',
          description:
            'Boards, lanes, tasks, comments, todos, captured agent turns and webhooks. Every response body is JSON; errors are `{"error":{"code","message"}}`.',
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            apiKey: { type: 'http', scheme: 'bearer', description: 'An `ak_...` API key.' },
          },
        },
        security: [{ apiKey: [] }],
      },
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    });
  },
  { name: 'openapi' },
);
