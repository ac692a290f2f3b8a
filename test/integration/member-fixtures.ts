import type { HTTPMethods } from 'fastify';
import { expect } from 'vitest';
import { API } from '../support/api.js';
import type { Browser, UiTestApp } from '../ui/ui-support.js';

/**
 * Requests to the external API of `t` with a key, as the member suites (agents, assignees, claims)
 * make them; with `mcp`, as the MCP server makes them (its origin header).
 */
export function externalApi(t: UiTestApp) {
  return (key: string, method: HTTPMethods, url: string, body?: unknown, mcp = false) =>
    t.app.inject({
      method,
      url: `${API}${url}`,
      headers: { authorization: `Bearer ${key}`, ...(mcp ? { 'x-laneboard-origin': 'mcp' } : {}) },
      ...(body === undefined ? {} : { payload: body as object }),
    });
}

/** POSTs `body` to the UI API as `browser`, expects 201, and returns the created resource. */
export async function created(browser: Browser, url: string, body: unknown) {
  const res = await browser.request('POST', url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
