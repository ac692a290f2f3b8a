// Smoke run of the built service on the Node.js that runs this script (`dist/` must exist: it builds
// nothing). It starts `dist/main.js` on a free loopback port with a fresh data dir, then checks, in order:
// the health check, a key made with the CLI, a board made through the API, a signed webhook delivered to
// a receiver on loopback, and the web UI's first page (the one-time setup) in Chromium.
//
//   PATH=~/.cache/laneboard-node/24.21.0/bin:$PATH node scripts/smoke.mjs
//
// Every wait is for an event or an answer, bounded only to catch a hang: the whole run stops after
// SMOKE_TIMEOUT_MS (default 5 minutes). Exit code 0 when every step passed, 1 otherwise.
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TIMEOUT_MS = Number(process.env.SMOKE_TIMEOUT_MS ?? 300_000);
const label = `smoke (Node ${process.version})`;
const cleanups = [];
let server = null;
let serverStderr = '';

const step = (what) => process.stdout.write(`${label}: ${what}\n`);

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A child's environment without a Laneboard or database setting the caller may have exported. */
function cleanEnv(extra) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(LANEBOARD_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$|LOG_LEVEL$)/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

function exitOf(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode);
    else child.once('exit', (code, signal) => resolve(code ?? signal));
  });
}

/** Resolves when GET /healthz answers 200, rejects when the server exits first. */
async function waitHealthy(baseUrl) {
  const exited = exitOf(server).then((code) => {
    throw new Error(`the server exited (${code}) before it was healthy: ${serverStderr.trim()}`);
  });
  for (;;) {
    const answer = fetch(`${baseUrl}/healthz`).then(
      async (res) => ({ status: res.status, body: await res.json() }),
      () => null, // not listening yet
    );
    const result = await Promise.race([answer, exited]);
    if (result?.status === 200) return result.body;
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited]);
  }
}

function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/laneboard.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`laneboard ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

async function api(baseUrl, key, method, url, body) {
  const res = await fetch(`${baseUrl}/api/ext/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text).data;
}

/** A webhook receiver on loopback; `next` resolves with the first delivery's raw body and headers. */
async function startReceiver() {
  let deliver;
  const next = new Promise((resolve) => {
    deliver = resolve;
  });
  const receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      deliver({ path: req.url, headers: req.headers, rawBody: Buffer.concat(chunks) });
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
  return { url: `http://127.0.0.1:${receiver.address().port}/hook`, next };
}

function signatureMatches(secret, rawBody, header) {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function smoke() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-smoke-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = cleanEnv({
    LANEBOARD_DATA_DIR: dataDir,
    LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
    LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
  });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  server = spawn(process.execPath, [path.join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server.stderr.setEncoding('utf8').on('data', (chunk) => {
    serverStderr += chunk;
  });
  const health = await waitHealthy(baseUrl);
  step(`health ${JSON.stringify(health)} on ${baseUrl}`);

  const created = JSON.parse(
    await runCli(['keys', 'create', '--name', 'smoke', '--all-boards', '--json'], env),
  );
  if (!String(created.key).startsWith('ak_')) throw new Error(`keys create printed no key: ${created.key}`);
  step(`key ${created.id} created with the CLI`);

  const board = await api(baseUrl, created.key, 'POST', '/boards', { name: 'Smoke' });
  step(`board ${board.id} created through the API`);

  const receiver = await startReceiver();
  const webhook = await api(baseUrl, created.key, 'POST', '/webhooks', {
    url: receiver.url,
    events: ['lane.created'],
  });
  const lane = await api(baseUrl, created.key, 'POST', `/boards/${board.id}/lanes`, { name: 'Todo' });
  const delivery = await receiver.next;
  const event = JSON.parse(delivery.rawBody.toString('utf8'));
  if (event.type !== 'lane.created' || event.data?.lane_id !== lane.id) {
    throw new Error(
      `the webhook delivered ${delivery.rawBody.toString('utf8')}, not lane ${lane.id} created`,
    );
  }
  if (!signatureMatches(webhook.secret, delivery.rawBody, delivery.headers['x-service-signature-256'])) {
    throw new Error('the delivery is not signed with the webhook secret');
  }
  step(`webhook ${webhook.id} delivered a signed lane.created to ${receiver.url}`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  cleanups.push(() => browser.close());
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.setDefaultTimeout(60_000);
  await page.goto(`${baseUrl}/`);
  // A fresh database: the UI sends its first visitor to the one-time setup of the owner account.
  await page.waitForURL('**/setup');
  await page.getByRole('button', { name: 'Create owner account' }).waitFor();
  if (pageErrors.length > 0) throw new Error(`the page threw: ${pageErrors.join('; ')}`);
  step(`the UI's first page (${new URL(page.url()).pathname}) rendered in Chromium`);
}

async function stopServer() {
  if (server === null || server.exitCode !== null || server.signalCode !== null) return;
  const exited = exitOf(server);
  server.kill('SIGTERM');
  const late = setTimeout(() => server.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(late);
}

async function cleanUp() {
  await stopServer();
  for (const cleanup of cleanups.reverse()) await cleanup();
}

const hang = setTimeout(() => {
  process.stderr.write(`${label}: FAILED: no result after ${TIMEOUT_MS} ms\n`);
  server?.kill('SIGKILL');
  process.exit(1);
}, TIMEOUT_MS);

try {
  await smoke();
  await cleanUp();
  step('passed');
} catch (error) {
  process.stderr.write(`${label}: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  await cleanUp().catch(() => {});
  process.exitCode = 1;
} finally {
  clearTimeout(hang);
}
