import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuilt, freePort, ROOT } from '../../support/built-server.js';
import { sleep, waitUntil } from '../../support/wait.js';

const MAIN = path.join(ROOT, 'dist/main.js');
const CLI = path.join(ROOT, 'bin/laneboard.js');

export { ensureBuilt, freePort, ROOT, sleep, waitUntil };

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes; each test reads what it asserts.
  body: any;
}

/** One `node dist/main.js` process. */
export class Instance {
  private output = '';
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Spawns the server; it is not ready until `ready()` resolves. */
  static spawn(name: string, env: Record<string, string>): Instance {
    const port = Number(env.PORT);
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return new Instance(name, port, child);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What the process wrote to stderr (its warnings and errors), for failure messages. */
  get stderr(): string {
    return this.output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves once GET /healthz answers 200; fails if the process exits first. */
  async ready(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited (${this.child.exitCode}): ${this.output}`);
      if ((await this.health()) === 200) return;
      if (Date.now() > deadline) throw new Error(`${this.name} did not become healthy: ${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The status of GET /healthz, or 0 when nothing answers. */
  async health(): Promise<number> {
    try {
      return (await fetch(`${this.baseUrl}/healthz`)).status;
    } catch {
      return 0;
    }
  }

  /** A request to the external API with `key`. */
  async api(key: string, method: string, url: string, body?: unknown): Promise<ApiResponse> {
    const res = await fetch(`${this.baseUrl}/api/ext/v1${url}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  /** Sends `signal` and waits for it to take effect: the process stopped (SIGSTOP) or exited. */
  async signal(signal: NodeJS.Signals): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    if (signal !== 'SIGSTOP') {
      await this.exited;
      return;
    }
    // Stopped: the state in /proc/<pid>/stat (the field after the name) turns to T.
    const stat = `/proc/${this.child.pid}/stat`;
    await waitUntil(`${this.name} to be stopped`, async () =>
      fs.readFileSync(stat, 'utf8').split(') ')[1]?.startsWith('T') ? true : undefined,
    );
  }
}

/** Spawns every instance at the same moment and waits until all of them are healthy. */
export async function startTogether(
  envs: Array<{ name: string; env: Record<string, string> }>,
): Promise<Instance[]> {
  const instances = envs.map(({ name, env }) => Instance.spawn(name, env));
  try {
    await Promise.all(instances.map((instance) => instance.ready()));
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.signal('SIGKILL')));
    throw error;
  }
  return instances;
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/laneboard.js ...args` with `env` added to this process's environment. */
export function runCli(args: string[], env: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Creates an all-boards key with the CLI and returns its `ak_...` value. */
export function createKeyWithCli(env: Record<string, string>): string {
  const result = runCli(['keys', 'create', '--name', 'e2e', '--all-boards', '--json'], env);
  if (result.status !== 0) throw new Error(`keys create failed (${result.status}): ${result.stderr}`);
  return (JSON.parse(result.stdout) as { key: string }).key;
}
