import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** Where the reference page lives; linked from the README and the web UI's Settings. */
export const API_REFERENCE_PATH = '/api/ext/v1/docs';

/**
 * Everything the page loads comes from this server (Swagger UI's files ship in the npm package), so
 * the policy allows nothing from another host; Swagger UI's online validator is off.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // Swagger UI (React) sets a few inline styles; scripts stay limited to this server's files.
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');

/**
 * The API reference page (Swagger UI over the served OpenAPI document, webhooks included). Like the
 * document itself it needs no API key: the routes are public, the data is not.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  // Registered in its own context, so marking its routes public touches no other route.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: false };
    });
    await docs.register(swaggerUi, {
      routePrefix: API_REFERENCE_PATH,
      staticCSP: CONTENT_SECURITY_POLICY,
      theme: { title: 'Laneboard API reference' },
      uiConfig: {
        docExpansion: 'list',
        deepLinking: true,
        defaultModelsExpandDepth: 0,
        validatorUrl: null,
        tryItOutEnabled: false,
        displayOperationId: true,
      },
    });
  });
}
