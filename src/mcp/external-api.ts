import type { FastifyInstance } from 'fastify';
import type { Agent } from 'undici';

/** One external-API answer: the HTTP status and the parsed JSON body (null for 204). */
export interface ApiResponse {
  status: number;
  body: unknown;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path under /api/ext/v1, starting with `/`, query string included. */
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  /** For a long poll: how long to wait for the answer (over HTTP; the default is the client's). */
  timeoutMs?: number;
}

/**
 * The external API as the MCP tools see it. Every tool acts through it, so grants, the rate limit,
 * validation, error codes and webhooks are exactly those of `/api/ext/v1`, whichever transport serves
 * the tools.
 */
export interface ExternalApi {
  request(request: ApiRequest): Promise<ApiResponse>;
}

const API_PREFIX = '/api/ext/v1';

/**
 * Every request of the MCP tools says it is MCP's, whichever transport: the server then records the
 * change with origin `mcp` (the key's rights are the same). Kept in step with the server's
 * `ORIGIN_HEADER` (src/http/plugins/authentication.ts) by test/mcp/mcp-actor.test.ts.
 */
export const MCP_ORIGIN_HEADER = { 'x-laneboard-origin': 'mcp' } as const;

function headersFor(authorization: string, request: ApiRequest): Record<string, string> {
  const headers: Record<string, string> = {
    authorization,
    accept: 'application/json',
    ...MCP_ORIGIN_HEADER,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  return headers;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: { code: 'invalid_response', message: 'The server answered with something not JSON.' } };
  }
}

/** For `POST /mcp`: the server's own routes, called in process with the caller's Authorization header. */
export function injectedApi(app: FastifyInstance, authorization: string): ExternalApi {
  return {
    async request(request) {
      const response = await app.inject({
        method: request.method,
        url: `${API_PREFIX}${request.path}`,
        headers: headersFor(authorization, request),
        ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
      });
      return { status: response.statusCode, body: parseBody(response.body) };
    },
  };
}

/** For `laneboard mcp` (stdio): a Laneboard server reached over HTTP with an API key. */
export function httpApi(
  baseUrl: string,
  apiKey: string,
  timeoutMs = 30_000,
): ExternalApi & { close(): Promise<void> } {
  const base = new URL(baseUrl);
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}${API_PREFIX}`;
  // undici is loaded on the first request, not when `laneboard mcp` starts (about 200 ms of CPU).
  let client: Promise<{ fetch: typeof import('undici').fetch; dispatcher: Agent }> | null = null;
  const connect = () =>
    (client ??= import('undici').then(({ Agent, fetch }) => ({
      fetch,
      dispatcher: new Agent({ connections: 4 }),
    })));
  const authorization = `Bearer ${apiKey}`;
  return {
    async request(request) {
      const { fetch, dispatcher } = await connect();
      const response = await fetch(`${prefix}${request.path}`, {
        method: request.method,
        headers: headersFor(authorization, request),
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(request.timeoutMs ?? timeoutMs),
        dispatcher,
      });
      return { status: response.status, body: parseBody(await response.text()) };
    },
    close: async () => {
      await (await client)?.dispatcher.close();
    },
  };
}
