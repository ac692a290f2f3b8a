import Fastify, { type RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { uiApi } from '../../src/http/ui/ui-api.js';
import { createTestDatabase } from '../support/database.js';
import { testRuntime } from '../support/runtime.js';

/**
 * The UI API's routes whose success is not a JSON answer, so they have no response schema: the two
 * live streams (server-sent events, written by hand) and single sign-on's redirects.
 */
const NOT_JSON = new Set([
  'GET /api/ui/boards/:boardId/events',
  'GET /api/ui/notifications/events',
  'GET /api/ui/oidc/start',
  'GET /api/ui/oidc/callback',
  'GET /api/ui/boards/:boardId/tasks/:taskId/assets/:assetId/content',
]);

/** Every route the UI API registers (single sign-on on, so its routes are there too), by method and URL. */
async function uiRoutes(): Promise<RouteOptions[]> {
  const db = await createTestDatabase('sqlite');
  const runtime = await testRuntime(db.database);
  const app = Fastify();
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  try {
    await app.register(uiApi, {
      prefix: '/api/ui',
      services: runtime.services,
      singleSignOn: {
        relyingParty: { begin: () => Promise.reject(new Error('unused')), complete: () => Promise.reject() },
        secrets: runtime.secrets,
      },
    });
  } finally {
    await app.close();
    await runtime.close();
    await db.drop();
  }
  return routes.filter((route) => route.method !== 'HEAD');
}

describe('the web UI API declares its answers (src/schemas, the UI types come from them)', () => {
  it('every route under /api/ui has a response schema for its success (2xx) status', async () => {
    const routes = await uiRoutes();
    const name = (route: RouteOptions) => `${[route.method].flat().join(',')} ${route.url}`;
    expect(routes.length).toBeGreaterThan(40);
    for (const exempt of NOT_JSON)
      expect(routes.map(name), 'an exemption is still a route').toContain(exempt);
    const missing = routes
      .filter((route) => !NOT_JSON.has(name(route)))
      .filter((route) => !Object.keys(route.schema?.response ?? {}).some((code) => /^2(\d\d|xx)$/.test(code)))
      .map(name);
    // Such a route answers whatever its handler returns, and the UI would type it by hand: give it
    // `response: { 200: Data(X) }` with X in src/schemas, and derive the UI's type from X.
    expect(missing).toEqual([]);
  });
});
