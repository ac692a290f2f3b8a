import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../support/api.js';
import { useTestApp } from '../support/dialects.js';

interface Operation {
  security?: unknown[];
  responses?: Record<string, unknown>;
  requestBody?: unknown;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
}

/**
 * Every route the app registered, read from Fastify's own route tree (`printRoutes`), so routes added
 * by any later feature are checked too. Each line is `<tree prefix><segment> (<METHODS>)`; the prefix
 * is four characters per level and a segment continues its parent's path.
 */
function registeredRoutes(tree: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    const path = (depth === 0 ? '' : (stack[depth - 1] as string)) + (match[2] as string);
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method) routes.push({ method, path });
    }
  }
  return routes;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document', () => {
  let doc: OpenApiDocument;
  let routes: Array<{ method: string; path: string }>;

  const t = useTestApp('sqlite');
  beforeAll(async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/openapi.json` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
    routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
  });

  it('is served without an API key as a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('reads the route table it checks against (a parse that finds nothing would prove nothing)', () => {
    expect(routes).toContainEqual({ method: 'GET', path: `${API}/boards` });
    expect(routes).toContainEqual({ method: 'PATCH', path: `${API}/boards/:boardId/lanes/:laneId` });
    expect(routes).toContainEqual({ method: 'GET', path: '/healthz' });
    expect(routes.filter((r) => r.path.startsWith(API)).length).toBeGreaterThanOrEqual(9);
  });

  it('documents every registered /api/ext/v1 route with its method', () => {
    // The reference page's own files (HTML, scripts, a copy of this document) are not API operations.
    const api = routes.filter((r) => r.path.startsWith(API) && !r.path.startsWith(`${API}/docs`));
    const hasGet = new Set(api.filter((r) => r.method === 'GET').map((r) => r.path));
    const missing = api
      // HEAD is answered for every GET by Fastify itself; OpenAPI documents the GET.
      .filter((r) => !(r.method === 'HEAD' && hasGet.has(r.path)))
      .filter((r) => doc.paths[toOpenApiPath(r.path)]?.[r.method.toLowerCase()] === undefined)
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('serves the reference page without an API key, allowing nothing from another host', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API}/docs` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/https?:/);
    // Unknown paths below it are still answered in the API's error format.
    const missing = await t.app.inject({ method: 'GET', url: `${API}/docs-missing` });
    expect(missing.statusCode).toBe(404);
  });

  it('documents no route that does not exist', () => {
    const registered = new Set(routes.map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`));
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        if (['parameters', 'summary', 'description'].includes(method)) continue;
        expect(registered.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
      }
    }
  });

  it('gives every operation a success response, and every keyed operation its 401', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses ?? {});
        expect(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path} has a 2xx response`,
        ).toBe(true);
        const open = Array.isArray(operation.security) && operation.security.length === 0;
        if (!open) expect(statuses, `${method} ${path} documents 401`).toContain('401');
      }
    }
  });

  it('declares bearer authentication, and the document itself as open', () => {
    expect(doc.components?.securitySchemes?.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths[`${API}/openapi.json`]?.get?.security).toEqual([]);
  });

  it('documents request bodies of the board and lane routes, with unknown fields refused', () => {
    const body = (path: string, method: string) => {
      const requestBody = doc.paths[path]?.[method]?.requestBody as
        | { content: Record<string, { schema: object }> }
        | undefined;
      return requestBody?.content['application/json']?.schema;
    };
    expect(body(`${API}/boards`, 'post')).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
    });
    expect(body(`${API}/boards/{boardId}/lanes/{laneId}`, 'patch')).toMatchObject({
      properties: { name: { type: 'string' }, position: { type: 'integer' } },
      additionalProperties: false,
    });
  });
});
