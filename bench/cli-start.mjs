// CLI start-up: time from spawn to exit of `laneboard --help` and of a `laneboard capture claude` run
// with nothing new to send (its transcript was sent up to the end), median of BENCH_RUNS runs each,
// against `node -e 0` measured in the same run, and (through GNU time) the CPU time of each. Targets (issue 25): < 300 ms for both, on an idle
// machine. For information: `laneboard keys list` on an empty SQLite database (migrated first), and
// `laneboard mcp` with its stdin closed (it starts, serves nothing, exits). `npx laneboard --help` (npm's own start-up on top) is printed for information
// (BENCH_NPX_RUNS=0 leaves it out).
//
//   npx tsc -p tsconfig.build.json && node bench/cli-start.mjs       # BENCH_RUNS=15 by default
//
// Exits 1 when a target is missed. Needs dist/ (the CLI runs the build).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv as env, printTimes, ROOT, timeCases, timeRun } from './support/cli-timing.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const NPX_RUNS = Number(process.env.BENCH_NPX_RUNS ?? 5);
const TARGET_MS = 300;

const { StateStore } = await import(path.join(ROOT, 'dist/capture/state-store.js'));
const { fingerprint } = await import(path.join(ROOT, 'dist/capture/transcript-file.js'));
const { systemClock } = await import(path.join(ROOT, 'dist/lib/time.js'));

/** A transcript whose every line was sent: the state a capture run leaves after sending it all. */
async function sentTranscript(dir) {
  const transcript = path.join(dir, 'session.jsonl');
  fs.copyFileSync(path.join(ROOT, 'test/capture/fixtures/claude-session.jsonl'), transcript);
  const stateDir = path.join(dir, 'state');
  const size = fs.statSync(transcript).size;
  await new StateStore(stateDir, systemClock).write({
    transcriptPath: transcript,
    offset: size,
    fingerprint: await fingerprint(transcript, size),
    task: { boardId: 'brd_bench', taskId: 'tsk_bench', shortId: 'benchtsk' },
  });
  return { transcript, stateDir };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-cli-start-'));
try {
  const { transcript, stateDir } = await sentTranscript(dir);
  const keysEnv = env({ LANEBOARD_DATA_DIR: path.join(dir, 'data') });
  timeRun(process.execPath, [BIN, 'migrate'], { env: keysEnv });
  const mcpEnv = env({ LANEBOARD_URL: 'http://127.0.0.1:9', LANEBOARD_API_KEY: 'ak_bench' });
  const captureEnv = env({
    // Never called: there is nothing to send.
    LANEBOARD_URL: 'http://127.0.0.1:9',
    LANEBOARD_API_KEY: 'ak_bench',
    LANEBOARD_TASK: 'benchtsk',
    LANEBOARD_CAPTURE_STATE_DIR: stateDir,
  });
  const hook = JSON.stringify({
    session_id: 'bench',
    transcript_path: transcript,
    cwd: dir,
    hook_event_name: 'Stop',
  });
  const allCases = [
    {
      name: 'node -e 0 (baseline)',
      runs: RUNS,
      run: () => timeRun(process.execPath, ['-e', '0'], { env: env({}) }),
    },
    {
      name: 'laneboard --help',
      runs: RUNS,
      target: TARGET_MS,
      run: () => timeRun(process.execPath, [BIN, '--help'], { env: env({}) }),
    },
    {
      name: 'laneboard capture claude, nothing new',
      runs: RUNS,
      target: TARGET_MS,
      run: () => timeRun(process.execPath, [BIN, 'capture', 'claude'], { env: captureEnv, input: hook }),
    },
    {
      name: 'laneboard keys list (information)',
      runs: RUNS,
      run: () => timeRun(process.execPath, [BIN, 'keys', 'list'], { env: keysEnv }),
    },
    {
      name: 'laneboard mcp, stdin closed (information)',
      runs: RUNS,
      run: () => timeRun(process.execPath, [BIN, 'mcp'], { env: mcpEnv, input: '' }),
    },
    {
      name: 'npx laneboard --help (information)',
      runs: NPX_RUNS,
      run: () => timeRun('npx', ['laneboard', '--help'], { env: env({}) }),
    },
  ];

  const cases = allCases.filter((c) => c.runs > 0);
  const times = timeCases(cases, RUNS);

  const log = fs.existsSync(path.join(stateDir, 'capture.log'))
    ? fs.readFileSync(path.join(stateDir, 'capture.log'), 'utf8')
    : '';
  if (
    log
      .trim()
      .split('\n')
      .some((line) => line !== '' && !/: nothing new; offset \d+\.$/.test(line))
  )
    throw new Error(`the capture runs logged something, so they did not find "nothing new":\n${log}`);

  const missed = printTimes(cases, times, { width: 40 });
  process.exitCode = missed ? 1 : 0;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
