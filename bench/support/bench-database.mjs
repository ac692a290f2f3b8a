// The throwaway database the in-process benches run on: a data directory of their own (SQLite) and,
// with BENCH_DATABASE_URL, a PostgreSQL schema of their own; both removed by drop().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../dist/config.js';
import { BENCH_SECRET_KEY, throwawaySchema } from './postgres-schema.mjs';

/** Rate limits high enough never to answer 429 to a bench. */
export const NO_RATE_LIMIT = { max: 1_000_000_000, windowMs: 60_000 };

/**
 * `name` names the data directory and the schema. Returns the app's `config` (databaseUrl null on
 * SQLite), `databaseUrl` (BENCH_DATABASE_URL, or null) and `drop()`.
 */
export async function benchDatabase(name) {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `laneboard-${name}-bench-`));
  const schema = databaseUrl
    ? await throwawaySchema(databaseUrl, `bench_${name.replace(/\W/g, '_')}_${process.pid}`)
    : null;
  const config = {
    ...loadConfig({ LANEBOARD_DATA_DIR: dataDir }),
    databaseUrl: schema?.url ?? null,
    secretKey: BENCH_SECRET_KEY,
  };
  return {
    databaseUrl,
    config,
    async drop() {
      await schema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
