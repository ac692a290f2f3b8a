// The throwaway database the in-process benches run on: a data directory of their own (SQLite) and,
// with BENCH_DATABASE_URL, a PostgreSQL schema of their own; both removed by drop().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../dist/config.js';

/** Rate limits high enough never to answer 429 to a bench. */
export const NO_RATE_LIMIT = { max: 1_000_000_000, windowMs: 60_000 };

async function query(connectionString, text) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * `name` names the data directory and the schema. Returns the app's `config` (databaseUrl null on
 * SQLite), `databaseUrl` (BENCH_DATABASE_URL, or null) and `drop()`.
 */
export async function benchDatabase(name) {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `laneboard-${name}-bench-`));
  const schema = databaseUrl ? `bench_${name.replace(/\W/g, '_')}_${process.pid}` : null;
  let url = null;
  if (schema) {
    await query(databaseUrl, `create schema ${schema}`);
    const u = new URL(databaseUrl);
    u.searchParams.set('options', `-c search_path=${schema}`);
    url = u.toString();
  }
  const config = {
    ...loadConfig({ LANEBOARD_DATA_DIR: dataDir }),
    databaseUrl: url,
    secretKey: 'bench-master-key-0123456789abcdef0123456789',
  };
  return {
    databaseUrl,
    config,
    async drop() {
      if (schema) await query(databaseUrl, `drop schema ${schema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
