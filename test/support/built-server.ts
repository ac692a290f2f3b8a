import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'dist/main.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** `npm run build` when dist/ is missing or older than src/ (CI builds on install, so usually a no-op). */
export function ensureBuilt(): void {
  const built = fs.existsSync(MAIN) ? fs.statSync(MAIN).mtimeMs : 0;
  if (built >= newestMtime(path.join(ROOT, 'src'))) return;
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc still emits when files outside this suite's concern fail to type-check; a missing build is fatal.
    if (!fs.existsSync(MAIN)) throw error;
  }
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

/** Starts `node dist/main.js` with `env` and waits until /healthz answers. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, baseUrl, stderr: () => stderr };
}

export async function stopServer(server: RunningServer, signal: NodeJS.Signals): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  server.child.kill(signal);
  await exited;
}

/** Runs the CLI (`node bin/laneboard.js ...`) with `env`; returns stdout. */
export function runCli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, [path.join(ROOT, 'bin/laneboard.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}
