import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../src/db/schema.js';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { connect, listen, type McpSession, type TransportKind } from './mcp-clients.js';

export const API = '/api/ext/v1';

/** A suite's test app, listening on a local port for the MCP clients. */
export interface McpServer {
  t: TestApp;
  baseUrl: string;
  /** A session with `key` over `transport`, closed after the suite. */
  connect(transport: TransportKind, key: string): Promise<McpSession>;
}

/**
 * The set-up the MCP suites share: one app for the suite (none when `skip`), and every session opened
 * through it closed after the suite, before the app.
 */
export function useMcpServer(dialect: Dialect, skip = false): McpServer {
  const sessions: McpSession[] = [];
  // t and baseUrl are filled in by beforeAll, before any test reads them.
  const server = {
    async connect(transport: TransportKind, key: string) {
      const session = await connect(transport, server.baseUrl, key);
      sessions.push(session);
      return session;
    },
  } as McpServer;
  beforeAll(async () => {
    if (skip) return;
    server.t = await buildTestApp(dialect);
    server.baseUrl = await listen(server.t.app);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await server.t?.close();
  });
  return server;
}

/** An agent named `name` and a key (`keyName`) of its own to all boards. */
export async function agentWithKey(t: TestApp, name: string, keyName: string) {
  const agent = await t.services.agents.createAgent(OPERATOR, { name });
  const { key } = await t.services.apiKeys.createKey(OPERATOR, {
    name: keyName,
    allBoards: true,
    grants: [],
    agentId: agent.id,
  });
  return { agent, key };
}

/** A board named `name` with the lanes `laneNames`, made with `key`: its id and its lanes' ids by name. */
export async function boardWithLanes(t: TestApp, key: string, name: string, laneNames: string[]) {
  const boardId = (await t.request(key, 'POST', `${API}/boards`, { name })).json().data.id as string;
  const lanes: Record<string, string> = {};
  for (const lane of laneNames) {
    lanes[lane] = (
      await t.request(key, 'POST', `${API}/boards/${boardId}/lanes`, { name: lane })
    ).json().data.id;
  }
  return { boardId, lanes };
}
