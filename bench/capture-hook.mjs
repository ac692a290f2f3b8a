// Capture hook cost: time from spawn to exit of `laneboard capture copilot` / `capture claude` as the
// agent runs them, (1) with nothing new to send and (2) sending 20 new turns to a local Laneboard server
// (the built server on SQLite, the task already resolved by an earlier run, as for every answer after
// the first of a session). Median of BENCH_RUNS runs each, against `node -e 0` in the same run, with the
// CPU time (user + sys, through GNU time) of each. Targets (issue 28): < 300 ms with nothing new and
// < 600 ms for 20 turns, on an idle machine; the machine's load is printed with the results.
//
//   npm run build && node bench/capture-hook.mjs       # BENCH_RUNS=15 by default
//
// Exits 1 when a target is missed.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv as env, printTimes, ROOT, timeCases, timeRun } from './support/cli-timing.mjs';
import { fetchApi, migrateAndCreateKey, startServer, stopProcess } from './support/server-process.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TURNS = 20;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-capture-hook-'));
let server = null;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** `count` Copilot session events (user and assistant messages, alternating) with ids unique to `tag`. */
function copilotEvents(tag, count) {
  let text = '';
  for (let i = 0; i < count; i++) {
    const type = i % 2 === 0 ? 'user.message' : 'assistant.message';
    const data =
      i % 2 === 0
        ? { content: `Question ${tag}-${i}` }
        : { messageId: `m-${tag}-${i}`, content: `Answer ${tag}-${i} `.repeat(20) };
    const timestamp = new Date(Date.UTC(2026, 10, 27, 9, 0, 0) + Number(tag) * 1000 + i).toISOString();
    text += `${JSON.stringify({ type, id: `ev-${tag}-${i}`, timestamp, parentId: null, data })}\n`;
  }
  return text;
}

try {
  if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/ is missing: run npm run build');
  const serverEnv = env({
    LANEBOARD_DATA_DIR: path.join(dir, 'data'),
    LANEBOARD_SECRET_KEY: 'capture-bench-master-key-0123456789abcdef',
    LANEBOARD_RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  const key = migrateAndCreateKey(ROOT, serverEnv, 'capture-bench');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = await startServer({
    script: 'dist/main.js',
    cwd: ROOT,
    env: { ...serverEnv, PORT: String(port), HOST: '127.0.0.1' },
    healthUrl: `${base}/healthz`,
  });
  const api = fetchApi(base, key);
  const board = await api('POST', '/boards', { name: 'Capture bench' });
  const lane = await api('POST', `/boards/${board.id}/lanes`, { name: 'Doing' });
  const task = await api('POST', `/boards/${board.id}/tasks`, {
    title: 'Captured',
    laneId: lane.id,
  });

  const stateDir = path.join(dir, 'state');
  const captureEnv = env({
    LANEBOARD_URL: base,
    LANEBOARD_API_KEY: key,
    LANEBOARD_TASK: task.shortId,
    LANEBOARD_CAPTURE_STATE_DIR: stateDir,
  });
  // Two Copilot sessions: one whose log is all sent (nothing new), one that grows by 20 turns per run.
  const idleLog = path.join(dir, 'idle-events.jsonl');
  const busyLog = path.join(dir, 'busy-events.jsonl');
  fs.writeFileSync(idleLog, copilotEvents('0', TURNS));
  fs.writeFileSync(busyLog, '');
  const claudeLog = path.join(dir, 'claude.jsonl');
  fs.copyFileSync(path.join(ROOT, 'test/capture/fixtures/claude-session.jsonl'), claudeLog);
  const copilotHook = (log) =>
    JSON.stringify({
      timestamp: Date.now(),
      cwd: dir,
      sessionId: path.basename(log),
      transcriptPath: log,
      stopReason: 'end_turn',
    });
  const claudeHook = JSON.stringify({
    session_id: 'bench',
    transcript_path: claudeLog,
    cwd: dir,
    hook_event_name: 'Stop',
  });
  const capture = (agent, input) =>
    timeRun(process.execPath, [BIN, 'capture', agent], { env: captureEnv, input });
  // Send what is there, and resolve the task once for each log (later runs use the state).
  capture('copilot', copilotHook(idleLog));
  capture('claude', claudeHook);
  capture('copilot', copilotHook(busyLog));

  let batch = 0;
  const cases = [
    { name: 'node -e 0 (baseline)', run: () => timeRun(process.execPath, ['-e', '0'], { env: env({}) }) },
    {
      name: 'capture copilot, nothing new',
      target: 300,
      run: () => capture('copilot', copilotHook(idleLog)),
    },
    { name: 'capture claude, nothing new', target: 300, run: () => capture('claude', claudeHook) },
    {
      name: `capture copilot, ${TURNS} new turns`,
      target: 600,
      run: () => {
        batch += 1;
        fs.appendFileSync(busyLog, copilotEvents(String(batch), TURNS));
        return capture('copilot', copilotHook(busyLog));
      },
    },
  ];
  const times = timeCases(cases, RUNS);

  // Every run did what it was timed for: one log line each, and all the turns stored once.
  const log = fs.readFileSync(path.join(stateDir, 'capture.log'), 'utf8').trim().split('\n');
  const sent20 = log.filter((line) => line.includes(`${TURNS} turns sent, ${TURNS} new`)).length;
  const nothing = log.filter((line) => line.includes(': nothing new;')).length;
  if (sent20 < RUNS + 1 || nothing < 2 * (RUNS + 1) || log.some((line) => / error /.test(line)))
    throw new Error(`unexpected capture log:\n${log.slice(-10).join('\n')}`);
  const watermark = await api('GET', `/boards/${board.id}/tasks/${task.id}/turns?limit=1`);
  if (!Array.isArray(watermark)) throw new Error('turns were not listed');

  const missed = printTimes(cases, times, { width: 36, heading: `, ${RUNS} runs each` });
  process.exitCode = missed ? 1 : 0;
} finally {
  if (server) await stopProcess(server);
  fs.rmSync(dir, { recursive: true, force: true });
}
