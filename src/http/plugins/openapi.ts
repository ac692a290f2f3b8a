import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorResponse } from '../../schemas/errors.js';
import { completeDocument, type OpenApiObject } from './openapi-document.js';

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
          description: [
            'Boards, lanes, tasks, comments, todos, assets, reactions, captured agent turns and webhooks of a Laneboard server.',
            '',
            'Authenticate with `Authorization: Bearer ak_...`. Request and response bodies are JSON; every error is `{"error":{"code","message"}}` with a stable `code`. Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.',
            '',
            'Text limits apply after trimming. Headers over the server limit are answered with 431 `headers_too_large`; unknown paths with 404 `not_found`; unsupported methods with 405 `method_not_allowed`.',
          ].join('\n'),
          license: { name: 'MIT', identifier: 'MIT' },
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            apiKey: { type: 'http', scheme: 'bearer', description: 'An `ak_...` API key.' },
          },
        },
        security: [{ apiKey: [] }],
      },
      // Typed as the document, but called with `{ openapiObject }` (see @fastify/swagger's source).
      transformObject: (document) =>
        completeDocument((document as unknown as { openapiObject: OpenApiObject }).openapiObject) as never,
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    });
  },
  { name: 'openapi' },
);
