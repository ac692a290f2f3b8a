import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { DomainError } from '../../domain/errors.js';

const MiB = 1024 * 1024;

/**
 * The MCP SDK and the tools are loaded on the first `/mcp` request: they are about 13 MB of a server's
 * memory, and an instance that serves only the REST API never needs them (docs/performance.md).
 */
let mcpModules: ReturnType<typeof loadMcpModules> | null = null;

async function loadMcpModules() {
  const [{ StreamableHTTPServerTransport }, { injectedApi }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../../mcp/external-api.js'),
    import('../../mcp/server.js'),
  ]);
  return { StreamableHTTPServerTransport, injectedApi, createMcpServer };
}

/**
 * MCP's Streamable HTTP transport at `POST /mcp`, stateless: every request gets a fresh server and
 * transport, so any instance can answer any request. Authentication and the rate limit are those of the
 * external API (the route opts in with `config.auth`), and the tools call `/api/ext/v1` in process with
 * the caller's own Authorization header, so grants, validation, error codes and webhooks are the API's.
 */
export const mcpRoutes: FastifyPluginAsync<{ root: FastifyInstance }> = async (app, { root }) => {
  app.post(
    '/mcp',
    // push_turns carries up to 100 turns, as the turns route does.
    { config: { auth: true }, bodyLimit: 10 * MiB, schema: { hide: true } },
    async (request, reply) => {
      mcpModules ??= loadMcpModules();
      const { StreamableHTTPServerTransport, injectedApi, createMcpServer } = await mcpModules;
      const authorization = request.headers.authorization ?? '';
      const server = createMcpServer(injectedApi(root, authorization));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The transport writes the response itself; headers set so far (rate limit) go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  // Stateless: there is no server-initiated stream to GET and no session to DELETE.
  const notAllowed = async () => {
    throw new DomainError('method_not_allowed', 'This MCP endpoint is stateless: use POST.');
  };
  app.get('/mcp', { config: { auth: true }, schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { config: { auth: true }, schema: { hide: true } }, notAllowed);
};
