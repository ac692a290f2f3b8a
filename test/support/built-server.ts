import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime, withBuildLock } from './build-lock.js';
import { exitOf, hasExited, killAndWait, trackChild } from './child-processes.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'dist/main.js');

/** How long a server may take to answer its health check on a busy machine before the test gives up. */
export const SERVER_READY_TIMEOUT_MS = 60_000;
/** How long one CLI run may take before it is killed. */
export const CLI_TIMEOUT_MS = 120_000;
const BUILD_TIMEOUT_MS = 10 * 60_000;

function serverBuildIsFresh(): boolean {
  const built = fs.existsSync(MAIN) ? fs.statSync(MAIN).mtimeMs : 0;
  return built >= newestMtime(path.join(ROOT, 'src'));
}

/**
 * Compiles the server (`tsc -p tsconfig.build.json`) when dist/ is missing or older than src/ — one
 * worker at a time; CI's `npm test` builds first, so there it is a no-op. The web bundle is not touched
 * (see web-build.ts): rebuilding it here would empty dist/web under a running browser test.
 */
export function ensureBuilt(): void {
  if (serverBuildIsFresh()) return;
  withBuildLock(ROOT, 'server-build', () => {
    if (serverBuildIsFresh()) return; // another worker built it while this one waited
    try {
      execFileSync(
        process.execPath,
        [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: ROOT,
          stdio: 'pipe',
          timeout: BUILD_TIMEOUT_MS,
          killSignal: 'SIGKILL',
        },
      );
    } catch (error) {
      // tsc still emits when files outside this suite's concern fail to type-check; a missing build is fatal.
      if (!fs.existsSync(MAIN)) throw error;
    }
  });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  stderr: () => string;
}

export interface StartOptions {
  /** Overall bound on waiting for the health check (default SERVER_READY_TIMEOUT_MS). */
  readyTimeoutMs?: number;
  /** The script to run (default dist/main.js). */
  entry?: string;
}

/** Why a server did not start; `pid` is the process, already killed and exited when this is thrown. */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly pid: number | undefined,
  ) {
    super(message);
    this.name = 'ServerStartError';
  }
}

/** Whether GET /healthz answers 200; a request that hangs counts as no answer after `timeoutMs`. */
async function healthy(baseUrl: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false; // not listening yet, or not answering
  }
}

/**
 * Starts `node dist/main.js` with `env` and waits until /healthz answers 200. If the server exits first,
 * or does not answer within the bound, it is killed and its exit awaited before the error is thrown:
 * a test that gives up on a server never leaves it running.
 */
export async function startServer(
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<RunningServer> {
  const readyTimeoutMs = options.readyTimeoutMs ?? SERVER_READY_TIMEOUT_MS;
  const baseUrl = `http://127.0.0.1:${Number(env.PORT)}`;
  const child = trackChild(
    spawn(process.execPath, [options.entry ?? MAIN], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = exitOf(child).then(() => 'exited' as const);
  const deadline = Date.now() + readyTimeoutMs;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`server did not answer its health check within ${readyTimeoutMs} ms: ${stderr}`);
      const probe = healthy(baseUrl, Math.min(left, 10_000)).then((ok) =>
        ok ? ('ready' as const) : ('not yet' as const),
      );
      const outcome = await Promise.race([probe, exited]);
      if (outcome === 'ready') return { child, baseUrl, stderr: () => stderr };
      if (outcome === 'exited')
        throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${stderr}`);
      await Promise.race([new Promise((r) => setTimeout(r, 100)), exited]);
    }
  } catch (error) {
    await killAndWait(child, 'SIGKILL');
    throw new ServerStartError((error as Error).message, child.pid);
  }
}

/** Stops the server with `signal` and waits for its exit (killing it if a graceful stop hangs). */
export async function stopServer(
  server: RunningServer,
  signal: NodeJS.Signals,
  graceMs?: number,
): Promise<void> {
  if (hasExited(server.child)) return;
  await killAndWait(server.child, signal, graceMs);
}

/** Runs the CLI (`node bin/laneboard.js ...`) with `env`; returns stdout. A run that hangs is killed. */
export function runCli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, [path.join(ROOT, 'bin/laneboard.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: CLI_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
}
