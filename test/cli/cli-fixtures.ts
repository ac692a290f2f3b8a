import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { pino } from 'pino';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { useFixture } from '../support/dialects.js';
import { testConfig } from '../support/runtime.js';
import { type CliResult, laneboard } from './run-cli.js';

/** A data dir the CLI made, and the API in this process on the same data dir the CLI writes to. */
export interface CliDataDir {
  dataDir: string;
  /** LANEBOARD_DATA_DIR for a CLI process. */
  env: Record<string, string>;
  /** What `migrate` on the empty data dir answered (it creates the database and the master key). */
  migrated: CliResult;
  /** The runtime a CLI command builds on that data dir (its database and master key file). */
  runtime: Runtime;
  app: FastifyInstance;
}

async function createCliDataDir(prefix: string): Promise<CliDataDir> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const env = { LANEBOARD_DATA_DIR: dataDir };
  const migrated = await laneboard(['migrate'], env);
  if (migrated.code !== 0) throw new Error(`laneboard migrate failed: ${migrated.stderr}`);
  const runtime = await createRuntime(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
  const app = await buildApp({
    database: runtime.database,
    services: runtime.services,
    rateLimit: { max: 10_000, windowMs: 60_000 },
  });
  await app.ready();
  return { dataDir, env, migrated, runtime, app };
}

/**
 * A fresh data dir (its name starts with `prefix`) for the enclosing describe, removed afterwards;
 * `cli(...args)` runs `laneboard <args>` on it, `api` sends a request to the external API (`url` under
 * /api/ext/v1) with `key`.
 */
export function useCliDataDir(prefix: string) {
  const dir = useFixture(
    'the CLI data dir',
    () => createCliDataDir(prefix),
    async ({ app, runtime, dataDir }) => {
      await app.close();
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  );
  return {
    dir,
    cli: (...args: string[]) => laneboard(args, dir.env),
    api: (key: string, method: InjectOptions['method'], url: string, payload?: object) =>
      dir.app.inject({
        method,
        url: `/api/ext/v1${url}`,
        headers: { authorization: `Bearer ${key}` },
        payload,
      }),
  };
}

/**
 * Runs `work` with a CLI environment on a fresh PostgreSQL schema (DATABASE_URL and a master key), and
 * the database as this process sees it; the schema is dropped afterwards.
 */
export async function onPostgres(
  work: (env: Record<string, string>, db: TestDatabase) => Promise<void>,
): Promise<void> {
  const db = await createTestDatabase('postgres');
  try {
    await work(
      {
        DATABASE_URL: db.databaseUrl as string,
        LANEBOARD_SECRET_KEY: 'cli-test-master-key-0123456789abcdef',
      },
      db,
    );
  } finally {
    await db.drop();
  }
}

/** A refusal: exit code `code`, nothing on stdout, one line on stderr that mentions `mentions`. */
export function expectOneLineError(result: CliResult, code: number, mentions: string | RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  if (typeof mentions === 'string') expect(result.stderr).toContain(mentions);
  else expect(result.stderr).toMatch(mentions);
}
