import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpApi } from './external-api.js';
import { createMcpServer } from './server.js';

/**
 * `laneboard mcp`: the MCP server on stdin/stdout for an agent on this machine, acting through a
 * Laneboard server's external API with LANEBOARD_URL and LANEBOARD_API_KEY. stdout carries only
 * protocol messages; a configuration problem is thrown before anything is served. Resolves once the
 * client hangs up (closes our stdin or our stdout).
 */
export async function runStdioServer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const url = env.LANEBOARD_URL?.trim();
  const key = env.LANEBOARD_API_KEY?.trim();
  if (!url || !key) throw new Error('mcp: set LANEBOARD_URL and LANEBOARD_API_KEY (an ak_... key).');
  if (!URL.canParse(url)) throw new Error('mcp: LANEBOARD_URL is not a valid URL.');
  const api = httpApi(url, key);
  const server = createMcpServer(api);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // The client ends the session by closing our stdin.
  process.stdin.on('end', () => void server.close());
  // Or by closing its end of our stdout: a write then fails (EPIPE). That is a hang-up too, not a crash:
  // without this listener the error event would end the process with a stack trace. Later writes'
  // errors land here as well, so nothing is thrown while the session closes.
  process.stdout.on('error', () => void server.close());
  await server.connect(transport);
  await closed;
  await api.close();
}
