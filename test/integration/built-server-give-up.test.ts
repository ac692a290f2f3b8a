import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ServerStartError, startServer, stopServer } from '../support/built-server.js';
import { hasExited, killAndWait, trackChild } from '../support/child-processes.js';

/*
 * The harness's own promise: a test that gives up on a child process ends it. The servers here are tiny
 * scripts standing in for dist/main.js, so each failure mode is certain.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-give-up-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function script(name: string, source: string): string {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, source);
  return file;
}

/** Accepts connections on PORT and never answers a request. */
const SILENT = `import http from 'node:http';
http.createServer(() => {}).listen(Number(process.env.PORT), '127.0.0.1');`;
/** Answers /healthz, and ignores SIGTERM (a shutdown that hangs). */
const STUBBORN = `import http from 'node:http';
process.on('SIGTERM', () => {});
http.createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startServer gives up without leaving the server behind', () => {
  it('kills a server that never answers its health check, and has waited for its exit when it rejects', async () => {
    const entry = script('silent', SILENT);
    const error = await startServer(
      { PORT: String(await freePort()) },
      { entry, readyTimeoutMs: 3_000 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as ServerStartError).message).toContain('did not answer its health check within 3000 ms');
    const { pid } = error as ServerStartError;
    expect(pid).toBeTypeOf('number');
    expect(isRunning(pid as number)).toBe(false);
  });

  it('reports a server that exits before it is ready, with what it wrote to stderr', async () => {
    const entry = script('crash', `console.error('cannot open the database'); process.exit(3);`);
    const error = await startServer({ PORT: String(await freePort()) }, { entry }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as Error).message).toMatch(/server exited \(3\): cannot open the database/);
  });

  it('stopServer kills a server whose graceful stop hangs', async () => {
    const entry = script('stubborn', STUBBORN);
    const server = await startServer({ PORT: String(await freePort()) }, { entry });
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    await stopServer(server, 'SIGTERM', 500);
    expect(hasExited(server.child)).toBe(true);
    expect(server.child.signalCode).toBe('SIGKILL');
  });

  it('killAndWait resolves once the child has exited', async () => {
    const child = trackChild(
      spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }),
    );
    await killAndWait(child, 'SIGTERM');
    expect(hasExited(child)).toBe(true);
    expect(isRunning(child.pid as number)).toBe(false);
  });
});
