import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type CaptureOptions, type CaptureOutcome, captureClaude } from '../../src/capture/capture-claude.js';
import { captureCopilot } from '../../src/capture/capture-copilot.js';
import type { CaptureLog } from '../../src/capture/capture-log.js';
import type { Dialect } from '../../src/db/schema.js';
import { systemClock } from '../../src/lib/time.js';
import { createTaskFixture, insertTask } from '../integration/turn-fixtures.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** A test server listening on 127.0.0.1 with a board, lane and task, and an all-boards key. */
export interface CaptureServer {
  t: TestApp;
  url: string;
  key: string;
  boardId: string;
  /** A new task on the board, so a test sees only its own turns. */
  newTask(): Promise<{ taskId: string; shortId: string }>;
  close(): Promise<void>;
}

export async function startCaptureServer(dialect: Dialect): Promise<CaptureServer> {
  const t = await buildTestApp(dialect);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  const key = (await t.createKey('all')).key;
  const { boardId, laneId } = await createTaskFixture(t, key);
  return {
    t,
    url: `http://127.0.0.1:${port}`,
    key,
    boardId,
    async newTask() {
      const taskId = await insertTask(t, boardId, laneId);
      const detail = await t.request(key, 'GET', `/api/ext/v1/boards/${boardId}/tasks/${taskId}`);
      return { taskId, shortId: detail.json().data.shortId as string };
    },
    close: () => t.close(),
  };
}

export interface StoredTurn {
  sourceId: string;
  role: string;
  content: string;
  toolUseOnly: boolean;
  capturedAt: string;
}

/** Every turn of the task, through the API, in capture order. */
export async function storedTurns(server: CaptureServer, taskId: string): Promise<StoredTurn[]> {
  const res = await server.t.request(
    server.key,
    'GET',
    `/api/ext/v1/boards/${server.boardId}/tasks/${taskId}/turns?limit=200`,
  );
  return res.json().data as StoredTurn[];
}

/** A scratch directory (state and transcripts) removed by the caller. */
export function scratchDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-capture-'));
}

export function memoryLog(): CaptureLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

/** What one capture test works with: filled in by the hooks `useCaptureCase` registers. */
export interface CaptureCase {
  server: CaptureServer;
  /** The test's scratch directory, removed after it. */
  dir: string;
  /** `state` in the scratch directory: capture's state directory. */
  stateDir: string;
  /** The transcript (a Copilot event log for Copilot) in the scratch directory; the test writes it. */
  transcript: string;
  /** A task of the test's own, so it sees only its own turns. */
  taskId: string;
  shortId: string;
  /** Every turn of the test's task, through the API, in capture order. */
  turns(): Promise<StoredTurn[]>;
  /** The environment a capture hook process runs with: the server (or `url`), its key, the state directory. */
  hookEnv(url?: string): Record<string, string>;
}

/**
 * The set-up every capture suite shares: one server for the suite, and per test a
 * scratch directory and a new task. `transcript` is the transcript's path in the scratch directory (its
 * folders are made).
 */
export function useCaptureCase(dialect: Dialect, { transcript }: { transcript: string }): CaptureCase {
  // Filled in by the hooks below, before any test reads it.
  const c = {} as CaptureCase;
  c.turns = () => storedTurns(c.server, c.taskId);
  c.hookEnv = (url = c.server.url) => ({
    LANEBOARD_URL: url,
    LANEBOARD_API_KEY: c.server.key,
    LANEBOARD_CAPTURE_STATE_DIR: c.stateDir,
  });
  beforeAll(async () => {
    c.server = await startCaptureServer(dialect);
  });
  afterAll(async () => {
    await c.server?.close();
  });
  beforeEach(async () => {
    c.dir = scratchDir();
    c.transcript = path.join(c.dir, transcript);
    fs.mkdirSync(path.dirname(c.transcript), { recursive: true });
    c.stateDir = path.join(c.dir, 'state');
    ({ taskId: c.taskId, shortId: c.shortId } = await c.server.newTask());
  });
  afterEach(() => {
    if (c.dir) fs.rmSync(c.dir, { recursive: true, force: true });
  });
  return c;
}

type Capture = (options: CaptureOptions) => Promise<CaptureOutcome>;

/** One run of `capture` with the test's server and state directory, as a hook would make it. */
function runWith(
  capture: Capture,
  input: CaptureOptions['input'],
  server: { url: string; key: string },
  stateDir: string,
  overrides: Partial<CaptureOptions>,
): Promise<CaptureOutcome> {
  return capture({
    input,
    env: { LANEBOARD_URL: server.url, LANEBOARD_API_KEY: server.key },
    stateDir,
    clock: systemClock,
    budgetMs: 10_000,
    log: memoryLog(),
    ...overrides,
  });
}

/** One capture run as the hook would make it, with the test's server, task and state directory. */
export function runCapture(
  server: { url: string; key: string },
  transcriptPath: string,
  stateDir: string,
  overrides: Partial<CaptureOptions> = {},
): Promise<CaptureOutcome> {
  const input = { transcriptPath, sessionId: 'test', cwd: null, hookEventName: 'Stop' };
  return runWith(captureClaude, input, server, stateDir, overrides);
}

/** One `capture copilot` run as an agentStop hook would make it, on the event log `eventLog`. */
export function runCopilot(
  server: { url: string; key: string },
  eventLog: string,
  stateDir: string,
  overrides: Partial<CaptureOptions> = {},
): Promise<CaptureOutcome> {
  const input = {
    transcriptPath: eventLog,
    sessionId: 'copilot-test',
    cwd: null,
    hookEventName: 'agentStop',
  };
  return runWith(captureCopilot, input, server, stateDir, overrides);
}
