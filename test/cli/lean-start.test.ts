import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { laneboard } from './run-cli.js';
import { laneboardLoads } from './support/loaded-modules.js';

// What each command loads, recorded by a loader hook in the real process (node on bin/laneboard.js).
// Fails when someone adds a static import of the runtime (or of Fastify, Kysely, a driver) to a module
// these commands load: the capture hook and the MCP server pay for every module at each start.

/** Our modules the command table may load: itself, and the role names `users` offers. */
const COMMAND_TABLE = /^(cli\/[^/]+\.js|domain\/people\/roles\.js|domain\/errors\.js)$/;
const SERVER_PACKAGES = ['fastify', 'kysely', 'better-sqlite3', 'pg', 'ioredis', 'pino', '@node-rs/argon2'];
const SERVER_MODULES = /^(runtime|app|main|services|config)\.js$|^(db|http|webhooks|live|domain)\//;

/** What a console command (keys, users) must not load: servers, the dispatcher, live streams. */
const CONSOLE_EXCLUDED = /^(http|mcp|live)\/|^(app|main)\.js$|dispatcher/;
const WEBHOOK_FAN_OUT = ['webhooks/board-webhooks.js', 'webhooks/outbox.js'];
const NOT_FOR_CONSOLE = ['fastify', '@modelcontextprotocol/sdk', '@node-rs/argon2', 'undici', 'ioredis'];

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-lean-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('what each CLI command loads', () => {
  it('--help: commander and the command table, nothing else', async () => {
    const { result, ours, packages } = await laneboardLoads(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: laneboard');
    expect(ours.filter((file) => !COMMAND_TABLE.test(file))).toEqual([]);
    expect(ours).toContain('cli/index.js');
    expect(packages).toEqual(['commander']);
  });

  it('capture claude with nothing new: the capture code, no server code and no HTTP client', async () => {
    const stateDir = path.join(scratch, 'capture-state');
    const transcript = path.join(scratch, 'empty-session.jsonl');
    fs.writeFileSync(transcript, '');
    const hook = JSON.stringify({ session_id: 's-1', transcript_path: transcript, cwd: scratch });
    const { result, ours, packages } = await laneboardLoads(
      ['capture', 'claude'],
      {
        // Never called: there is nothing to send.
        LANEBOARD_URL: 'http://127.0.0.1:9',
        LANEBOARD_API_KEY: 'ak_unused',
        LANEBOARD_TASK: 'abcdef12',
        LANEBOARD_CAPTURE_STATE_DIR: stateDir,
      },
      hook,
    );
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    // It got as far as reading the transcript: its one log line says nothing new (not "not configured",
    // "no task" or "cannot read").
    const logLines = fs.readFileSync(path.join(stateDir, 'capture.log'), 'utf8').trim().split('\n');
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toMatch(/info .*: nothing new; offset 0\.$/);
    expect(ours).toContain('capture/capture-claude.js');
    expect(ours.filter((file) => !COMMAND_TABLE.test(file) && !/^(capture|lib)\//.test(file))).toEqual([]);
    expect(ours).not.toContain('capture/api-client.js');
    expect(packages).toEqual(['commander']);
  });

  it('mcp: the MCP server and the schemas, no server code, HTTP client or validator', async () => {
    // stdin is closed at once: the session ends without a request.
    const { result, ours, packages } = await laneboardLoads(['mcp'], {
      LANEBOARD_URL: 'http://127.0.0.1:9',
      LANEBOARD_API_KEY: 'ak_unused',
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(ours).toContain('mcp/stdio.js');
    expect(ours.filter((file) => SERVER_MODULES.test(file) && !COMMAND_TABLE.test(file))).toEqual([]);
    expect(packages).toContain('@modelcontextprotocol/sdk');
    expect(packages.filter((name) => SERVER_PACKAGES.includes(name))).toEqual([]);
    // Nothing is called: no HTTP client yet, and no tool's validator compiled (ours is loaded with the
    // first call).
    expect(packages).not.toContain('undici');
    expect(ours).not.toContain('schemas/validation.js');
  });

  it('keys list on SQLite: the console runtime; no HTTP or MCP server, dispatcher, live streams, argon2 or pg', async () => {
    const env = { LANEBOARD_DATA_DIR: path.join(scratch, 'data') };
    expect((await laneboard(['migrate'], env)).code).toBe(0);
    const { result, ours, packages } = await laneboardLoads(['keys', 'list'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('No API keys yet');
    expect(ours).toContain('runtime.js');
    expect(ours).toContain('domain/api-keys/api-key-service.js');
    expect(ours.filter((file) => CONSOLE_EXCLUDED.test(file))).toEqual([]);
    // Of the webhooks room, only the fan-out that queues deliveries inside a change's transaction.
    expect(ours.filter((file) => file.startsWith('webhooks/') && !WEBHOOK_FAN_OUT.includes(file))).toEqual(
      [],
    );
    expect(packages).toContain('better-sqlite3');
    expect(packages.filter((name) => NOT_FOR_CONSOLE.includes(name))).toEqual([]);
    expect(packages).not.toContain('pg');
  });

  it.skipIf(TEST_DATABASE_URL === null)(
    'keys list on PostgreSQL: pg, and still none of the rest',
    async () => {
      const db = await createTestDatabase('postgres');
      try {
        const env = {
          DATABASE_URL: db.databaseUrl as string,
          LANEBOARD_SECRET_KEY: 'lean-start-master-key-0123456789abcdef',
        };
        const { result, ours, packages } = await laneboardLoads(['keys', 'list'], env);
        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toContain('No API keys yet');
        // The recorder sees pg, which is required on demand: so its absence on SQLite above means something.
        expect(packages).toContain('pg');
        expect(ours.filter((file) => CONSOLE_EXCLUDED.test(file))).toEqual([]);
        expect(packages.filter((name) => NOT_FOR_CONSOLE.includes(name))).toEqual([]);
      } finally {
        await db.drop();
      }
    },
  );
});
