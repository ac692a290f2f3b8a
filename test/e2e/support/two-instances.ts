import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttemptRecorder } from './attempt-recorder.js';
import { createKeyWithCli, ensureBuilt, freePort, type Instance, startTogether } from './instances.js';
import { EmptySchema, TEST_DATABASE_URL } from './postgres-schema.js';

/*
 * Two real server processes (`node dist/main.js`) on one PostgreSQL schema, as a team deployment runs
 * them behind a load balancer. PostgreSQL only: SQLite is one process by design.
 */

export const SECRET = 'e2e-master-key-0123456789abcdef0123456789abcdef';
export const POOL_SIZE = 4;
export const WEBHOOK_TIMEOUT_MS = 2000;
// The dispatcher leases a claimed delivery for twice the time-out plus 2 s.
export const LEASE_MS = 2 * WEBHOOK_TIMEOUT_MS + 2000;

export const NO_POSTGRES = TEST_DATABASE_URL === null;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? null;

export function baseEnv(dataDir: string): Record<string, string> {
  return {
    LANEBOARD_SECRET_KEY: SECRET,
    LANEBOARD_DATA_DIR: dataDir,
    LANEBOARD_DB_POOL_SIZE: String(POOL_SIZE),
    LANEBOARD_RATE_LIMIT_MAX: '1000000',
    LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
    LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
    LANEBOARD_WEBHOOK_RETRY_DELAYS: '200ms,200ms,200ms,200ms',
    LANEBOARD_WEBHOOK_TIMEOUT: `${WEBHOOK_TIMEOUT_MS}ms`,
  };
}

export interface TwoInstances {
  schema: EmptySchema;
  dataDir: string;
  receiver: AttemptRecorder;
  a: Instance;
  b: Instance;
  /** An all-boards key made with the CLI. */
  key: string;
  /** Each instance's `application_name` on its PostgreSQL connections. */
  appNames: { a: string; b: string };
}

/**
 * Instances A and B started at the same moment on an EMPTY schema: they race to apply the migrations.
 * `envB` adds to B's environment only.
 */
export async function startTwoInstances(envB: Record<string, string> = {}): Promise<TwoInstances> {
  ensureBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-e2e-'));
  const receiver = await AttemptRecorder.start();
  const schema = await EmptySchema.create();
  const appNames = { a: `${schema.name}_a`, b: `${schema.name}_b` };
  const env = baseEnv(dataDir);
  const started = await startTogether([
    {
      name: 'instance A',
      env: {
        ...env,
        PORT: String(await freePort()),
        DATABASE_URL: schema.url({ application_name: appNames.a }),
      },
    },
    {
      name: 'instance B',
      env: {
        ...env,
        PORT: String(await freePort()),
        DATABASE_URL: schema.url({ application_name: appNames.b }),
        ...envB,
      },
    },
  ]);
  const key = createKeyWithCli({ ...env, DATABASE_URL: schema.url() });
  return { schema, dataDir, receiver, a: started[0]!, b: started[1]!, key, appNames };
}

/** Kills both instances (what is left of them) and removes the schema, receiver and data directory. */
export async function stopTwoInstances(pair: Partial<TwoInstances>): Promise<void> {
  await Promise.all([pair.a?.signal('SIGKILL'), pair.b?.signal('SIGKILL')]);
  await pair.receiver?.close();
  await pair.schema?.drop();
  if (pair.dataDir) fs.rmSync(pair.dataDir, { recursive: true, force: true });
}
