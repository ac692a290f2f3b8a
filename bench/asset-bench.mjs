// Asset benchmark: upload and download of a 1 MiB file against the built server (one instance), with
// the server's peak RSS, to show that memory stays bounded by concurrent uploads, not by stored bytes.
//
//   node bench/asset-bench.mjs                                    SQLite
//   BENCH_DATABASE_URL=postgres://... node bench/asset-bench.mjs  PostgreSQL
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=4 BENCH_SIZE=1048576        defaults
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { throwawaySchema } from './support/postgres-schema.mjs';
import { loadAverage, memoryMb } from './support/proc.mjs';
import { fetchApi, serverEnv, startLaneboard, stopProcess } from './support/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
const size = Number(process.env.BENCH_SIZE ?? 1024 * 1024);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-asset-bench-'));
const port = Number(process.env.BENCH_PORT ?? 21000 + (process.pid % 2000));
let server = null;
let schema = null;

function multipart(bytes) {
  const boundary = 'asset-bench-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration: seconds, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

try {
  if (!fs.existsSync(path.join(root, 'dist/main.js')))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (databaseUrl) schema = await throwawaySchema(databaseUrl, `bench_asset_${process.pid}`);
  const dbEnv = schema ? { DATABASE_URL: schema.url } : {};
  const started = await startLaneboard({ root, env: serverEnv(dataDir, dbEnv), port });
  server = started.child;
  const base = `http://127.0.0.1:${port}/api/ext/v1`;
  const headers = { authorization: `Bearer ${started.key}` };
  const api = fetchApi(`http://127.0.0.1:${port}`, started.key);
  const board = await api('POST', '/boards', { name: 'Assets' });
  const lane = await api('POST', `/boards/${board.id}/lanes`, { name: 'L' });
  const task = await api('POST', `/boards/${board.id}/tasks`, { title: 'T', laneId: lane.id });
  const assets = `${base}/boards/${board.id}/tasks/${task.id}/assets`;
  const { body, contentType } = multipart(randomBytes(size));
  const first = await fetch(assets, {
    method: 'POST',
    headers: { ...headers, 'content-type': contentType },
    body,
  });
  if (first.status !== 201) throw new Error(`upload failed: ${first.status} ${await first.text()}`);
  const asset = (await first.json()).data;
  const idle = memoryMb(server.pid);

  const loadBefore = loadAverage();
  const upload = await run({
    url: assets,
    method: 'POST',
    headers: { ...headers, 'content-type': contentType },
    body,
  });
  const afterUpload = memoryMb(server.pid);
  const download = await run({ url: `${assets}/${asset.id}/content`, headers });
  const afterDownload = memoryMb(server.pid);
  const bad = (r) => r.non2xx + r.errors + r.timeouts;
  const line = (what, r, mem) =>
    `${what.padEnd(9)} ${String(Math.round(r.requests.average)).padStart(5)} req/s  ${((r.requests.average * size) / 1048576).toFixed(0).padStart(4)} MiB/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  RSS ${mem.rss} MiB (peak ${mem.peak})  failed ${bad(r)}`;
  console.log(
    `Assets of ${size} bytes, ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${connections} connections, ${seconds} s each; load ${loadBefore} → ${loadAverage()}`,
  );
  console.log(`idle after one upload: RSS ${idle.rss} MiB`);
  console.log(line('upload', upload, afterUpload));
  console.log(line('download', download, afterDownload));
} finally {
  if (server) await stopProcess(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
  await schema?.drop();
}
