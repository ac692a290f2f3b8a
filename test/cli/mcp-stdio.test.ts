import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, exitOf, PROJECT_ROOT } from './run-cli.js';

/** One JSON-RPC message per line, as the stdio transport frames them. */
const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;

describe('laneboard mcp (stdio)', () => {
  it('a client that closes its end of stdout ends the session: exit code 0, no stack trace', async () => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin/laneboard.js'), 'mcp'], {
      cwd: PROJECT_ROOT,
      // initialize and ping never call the Laneboard server.
      env: childEnv({ LANEBOARD_URL: 'http://127.0.0.1:9', LANEBOARD_API_KEY: 'ak_unused' }),
      stdio: 'pipe',
    });
    const exited = exitOf(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });

    let stdout = '';
    const initialized = new Promise<void>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('"id":1')) resolve();
      });
    });
    child.stdin.write(
      line({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'test-client', version: '1.0.0' },
        },
      }),
    );
    await Promise.race([initialized, exited]);
    expect(stdout).toContain('"serverInfo"');
    child.stdin.write(line({ method: 'notifications/initialized' }));

    // The client stops reading (its end of the pipe is closed) but keeps stdin open and asks more:
    // the server's answers now fail to write with EPIPE.
    child.stdout.destroy();
    for (let id = 2; id < 12; id++) child.stdin.write(line({ id, method: 'ping' }));

    const { code, signal } = await exited;
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
