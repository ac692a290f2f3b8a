import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { ensureBuilt, ROOT } from '../support/built-server.js';

export type TransportKind = 'http' | 'stdio';
export const TRANSPORTS: TransportKind[] = ['http', 'stdio'];

/** Makes the test app listen on a free local port (the stdio server and the HTTP client need one). */
export async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

export interface ToolCall {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

export interface McpSession {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolCall>;
  close(): Promise<void>;
}

let built = false;
/**
 * dist/ is checked once per test file: checking at every session rebuilt everything (the web bundle
 * too) whenever any source file had changed meanwhile, which took most of a stdio test's time.
 */
function ensureBuiltOnce(): void {
  if (built) return;
  ensureBuilt();
  built = true;
}

/**
 * The SDK's own Client, connected as an agent would be: to `POST /mcp` with a Bearer key, or to
 * `laneboard mcp` (the built CLI) on stdio with LANEBOARD_URL and LANEBOARD_API_KEY.
 */
export async function connect(kind: TransportKind, baseUrl: string, key: string): Promise<McpSession> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  if (kind === 'http') {
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
  } else {
    ensureBuiltOnce();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(ROOT, 'bin/laneboard.js'), 'mcp'],
        env: { PATH: process.env.PATH ?? '', LANEBOARD_URL: baseUrl, LANEBOARD_API_KEY: key },
        stderr: 'pipe',
      }),
    );
  }
  return {
    client,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as Array<{ type: string; text?: string }>;
      return {
        isError: result.isError === true,
        text: content.map((c) => c.text ?? '').join('\n'),
        structured: (result.structuredContent ?? {}) as Record<string, unknown>,
      };
    },
    close: () => client.close(),
  };
}
