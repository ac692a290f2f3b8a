import { afterAll, beforeAll, describe } from 'vitest';
import type { Dialect } from '../../src/db/schema.js';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import { ensureBuilt } from '../support/built-server.js';
import { describeEachDialect } from '../support/dialects.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { connect, listen, type McpSession, TRANSPORTS, type TransportKind } from './mcp-clients.js';

export const API = '/api/ext/v1';

/** A suite's test app, listening on a local port for the MCP clients. */
export interface McpServer {
  t: TestApp;
  baseUrl: string;
  /** A session with `key` over `transport`, closed after the suite. */
  connect(transport: TransportKind, key: string): Promise<McpSession>;
}

/**
 * The set-up the MCP suites share: one app for the suite, and every session opened through it closed
 * after the suite, before the app.
 */
export function useMcpServer(dialect: Dialect): McpServer {
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
    server.t = await buildTestApp(dialect);
    server.baseUrl = await listen(server.t.app);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await server.t?.close();
  });
  return server;
}

/**
 * The frame of the MCP suites: per dialect (`<name> (<dialect>)`) the built CLI, which the stdio transport
 * runs, and one server (useMcpServer); in it, per transport, a describe `over <transport>` holding
 * `body`'s tests.
 */
export function describeOverTransports(
  name: string,
  body: (mcp: McpServer, transport: TransportKind) => void,
): void {
  describeEachDialect(name, (dialect) => {
    // Building can take a while on a busy machine.
    beforeAll(() => ensureBuilt(), 180_000);
    const mcp = useMcpServer(dialect);
    describe.each(TRANSPORTS)('over %s', (transport: TransportKind) => body(mcp, transport));
  });
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

/** A task made with `key` on the board `boardId` (`body`: its title, lane and other fields). */
export async function createTask(t: TestApp, key: string, boardId: string, body: Record<string, unknown>) {
  const res = await t.request(key, 'POST', `${API}/boards/${boardId}/tasks`, body);
  return res.json().data as { id: string; shortId: string };
}
