// The servers benches spawn (the built `dist/main.js`, the baselines): their environment, the key the
// CLI makes for them, their start-up (waiting for an answer) and their end. No import of the build here,
// so that benches running another checkout's build (BENCH_ROOT) can use it: `root` names the checkout.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { BENCH_SECRET_KEY } from './postgres-schema.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * A bench server's environment: this process's, with its data in `dataDir`, rate limits it never
 * reaches, warnings only in its log, the bench master key, then `extra`. DATABASE_URL only from `extra`
 * (a throwaway schema's), never inherited: without one the server runs on SQLite.
 */
export function serverEnv(dataDir, extra = {}) {
  const env = {
    ...process.env,
    LANEBOARD_DATA_DIR: dataDir,
    LANEBOARD_RATE_LIMIT_MAX: '1000000000',
    LANEBOARD_SECRET_KEY: BENCH_SECRET_KEY,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  return { ...env, ...extra };
}

/** Migrates the database `env` points at and makes an all-boards key named `name`, with the CLI of `root`. */
export function migrateAndCreateKey(root, env, name = 'bench') {
  const cli = (...args) =>
    execFileSync(process.execPath, ['bin/laneboard.js', ...args], { cwd: root, env }).toString();
  cli('migrate');
  return JSON.parse(cli('keys', 'create', '--name', name, '--all-boards', '--json')).key;
}

/** Ends `child` (SIGTERM, or `signal`) and resolves once it has exited; at once if it already had. */
export async function stopProcess(child, signal = 'SIGTERM') {
  if (hasExited(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/**
 * Resolves once `url` answers 2xx (with `anyStatus`, any HTTP answer: for servers without /healthz).
 * Gives up with an error when `child` exits first, or after `timeoutMs`; giving up on a running child
 * ends it (SIGKILL), so that no bench leaves a server behind.
 */
export async function waitForHealthy(
  url,
  child,
  { timeoutMs = 60_000, intervalMs = 100, anyStatus = false } = {},
) {
  const deadline = Date.now() + timeoutMs;
  const what = child.spawnargs.slice(1).join(' ');
  for (;;) {
    if (hasExited(child)) {
      const how = child.exitCode !== null ? `with code ${child.exitCode}` : `on ${child.signalCode}`;
      throw new Error(`${what} exited ${how} before ${url} answered`);
    }
    const answered = await fetch(url).then(
      async (res) => {
        await res.body?.cancel();
        return anyStatus || res.ok;
      },
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) {
      await stopProcess(child, 'SIGKILL');
      throw new Error(`${what} did not answer on ${url} within ${timeoutMs / 1000} s (ended it)`);
    }
    await sleep(intervalMs);
  }
}

/**
 * Spawns `node [nodeArgs] script` in `cwd` with `env` (its stdout ignored, its stderr this process's)
 * and resolves with the child once `healthUrl` answers (waitForHealthy, given `wait`'s options).
 */
export async function startServer({ script, nodeArgs = [], cwd, env, healthUrl, ...wait }) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForHealthy(healthUrl, child, wait);
  return child;
}

/**
 * The built server of checkout `root` (dist/main.js, with `nodeArgs`) on `env` (see serverEnv) and
 * `port`, in `cwd` (`root` by default): migrates its database and makes a key named `keyName` with the
 * CLI first. Resolves with `{ child, key }` once its /healthz answers.
 */
export async function startLaneboard({ root, env, port, keyName = 'bench', nodeArgs = [], cwd = root }) {
  const key = migrateAndCreateKey(root, env, keyName);
  const child = await startServer({
    script: path.join(root, 'dist/main.js'),
    nodeArgs,
    cwd,
    env: { ...env, PORT: String(port) },
    healthUrl: `http://127.0.0.1:${port}/healthz`,
  });
  return { child, key };
}

/**
 * `api(method, url, body)` on the external API of `origin` with `key`, through fetch: resolves with the
 * answer's `data`, throws on a status of 300 or more.
 */
export function fetchApi(origin, key) {
  return async (method, url, body) => {
    const res = await fetch(`${origin}/api/ext/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status >= 300) throw new Error(`${method} ${url}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()).data;
  };
}

/**
 * `api(method, url, body)` on the external API of `origin` with `key`, over an undici Pool of
 * `connections`: resolves with the answer's `data`, throws on a status of 300 or more. `close()` ends
 * the pool.
 */
export function poolApi(origin, key, connections) {
  const pool = new Pool(origin, { connections });
  const api = async (method, url, body) => {
    const res = await pool.request({
      method,
      path: `/api/ext/v1${url}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.body.json();
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json.data;
  };
  return { api, close: () => pool.close() };
}

/**
 * A throwaway Laneboard for one round of a bench: a fresh data directory named after `name`, the built
 * server of `root` on it (startLaneboard, run in that directory, so that a `--cpu-prof` profile lands
 * there; `extraEnv` on top of serverEnv's) and a poolApi client of `connections`. Resolves with
 * `{ child, api, stop }`; stop() closes the client, ends the server and removes the directory.
 */
export async function throwawayLaneboard({ root, port, name, extraEnv, nodeArgs, connections }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `laneboard-${name}-`));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  let started;
  try {
    const env = serverEnv(dataDir, extraEnv);
    started = await startLaneboard({ root, env, port, keyName: name, nodeArgs, cwd: dataDir });
  } catch (error) {
    removeDir();
    throw error;
  }
  const { child, key } = started;
  const client = poolApi(`http://127.0.0.1:${port}`, key, connections);
  return {
    child,
    api: client.api,
    async stop() {
      await client.close();
      await stopProcess(child);
      removeDir();
    },
  };
}
