import { beforeAll, describe, expect, it } from 'vitest';
import { STATUS_BY_CODE } from '../../src/http/error-status.js';
import { DELIVERED_EVENT_TYPES } from '../../src/schemas/events.js';
import { API } from '../support/api.js';
import { useTestApp } from '../support/dialects.js';

/**
 * The rules integrators' linters and generators care about, applied to the served document on every
 * operation, including those added by later features (openapi-redocly.test.ts also runs Redocly's own
 * recommended rules over it).
 */

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown; examples?: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown; examples?: unknown }> };
  responses: Record<string, Response>;
}
interface Doc {
  info: { license?: { name: string } };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

/** True when a schema, or any schema inside it, carries examples. */
function hasExamples(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const record = schema as Record<string, unknown>;
  const examples = record.examples;
  if (Array.isArray(examples) ? examples.length > 0 : typeof examples === 'object' && examples !== null)
    return true;
  if (record.example !== undefined) return true;
  return Object.values(record).some((value) => hasExamples(value));
}

describe('OpenAPI document lint', () => {
  let doc: Doc;
  let operations: Array<{ name: string; path: string; method: string; op: Operation }>;

  const t = useTestApp('sqlite');
  beforeAll(async () => {
    doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    operations = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (op) operations.push({ name: `${method.toUpperCase()} ${path}`, path, method, op });
      }
    }
    for (const [type, item] of Object.entries(doc.webhooks)) {
      operations.push({ name: `webhook ${type}`, path: type, method: 'post', op: item.post });
    }
  });

  it('gives every operation a unique operationId, a summary, a description and declared tags', () => {
    expect(operations.length).toBeGreaterThan(40);
    const declared = new Set(doc.tags.map((tag) => tag.name));
    const seen = new Set<string>();
    for (const { name, op } of operations) {
      expect(op.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(seen.has(op.operationId as string), `${name}: duplicate operationId`).toBe(false);
      seen.add(op.operationId as string);
      expect(op.summary?.length, `${name}: summary`).toBeGreaterThan(3);
      expect(op.description?.length, `${name}: description`).toBeGreaterThan(3);
      expect(op.tags?.length, `${name}: tags`).toBeGreaterThan(0);
      for (const tag of op.tags ?? [])
        expect(declared.has(tag), `${name}: tag ${tag} is declared`).toBe(true);
    }
    for (const tag of doc.tags) expect(tag.description.length, tag.name).toBeGreaterThan(3);
  });

  it('has a license and no response described as "Default Response"', () => {
    expect(doc.info.license?.name).toBe('MIT');
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${name} ${status}`).not.toBe('Default Response');
        expect(response.description.length, `${name} ${status}`).toBeGreaterThan(2);
      }
    }
  });

  it('documents the errors and headers of every external API operation', () => {
    const api = operations.filter((o) => o.path.startsWith(API) && o.op.security?.length !== 0);
    expect(api.length).toBeGreaterThan(35);
    for (const { name, method, op } of api) {
      for (const status of ['401', '429', 'default'])
        expect(op.responses[status], `${name} ${status}`).toBeDefined();
      if (method !== 'get') {
        for (const status of ['413', '415']) expect(op.responses[status], `${name} ${status}`).toBeDefined();
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${name} ${status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
        if (status === '401') expect(headers, name).toContain('WWW-Authenticate');
        if (status === '429') expect(headers, name).toContain('Retry-After');
        if (/^[45]|default/.test(status)) {
          const schema = response.content?.['application/json']?.schema;
          expect(schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
        }
      }
    }
  });

  it('gives request bodies and success bodies examples', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        missing.push(...(hasExamples(media) ? [] : [`${name} request ${type}`]));
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (!status.startsWith('2')) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type !== 'application/json' || name.includes('openapi.json')) continue;
          missing.push(...(hasExamples(media) ? [] : [`${name} ${status}`]));
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists every error code as an enum and every delivered event type as a webhook', () => {
    const error = doc.components.schemas.ErrorResponse?.properties?.error as {
      properties: { code: { enum: string[] } };
    };
    expect([...error.properties.code.enum].sort()).toEqual(Object.keys(STATUS_BY_CODE).sort());
    expect(Object.keys(doc.webhooks).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
  });
});
