import type { Command } from 'commander';

/** `laneboard mcp`: an MCP server on stdio that talks to a Laneboard server over the external API. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve the Model Context Protocol on stdio (needs LANEBOARD_URL and LANEBOARD_API_KEY)')
    .action(async () => {
      // Loaded here so the other commands do not pay for the SDK.
      const { runStdioServer } = await import('../mcp/stdio.js');
      await runStdioServer();
    });
}
