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
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/laneboard.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const NPX_RUNS = Number(process.env.BENCH_NPX_RUNS ?? 5);
const TARGET_MS = 300;

const { StateStore } = await import(path.join(ROOT, 'dist/capture/state-store.js'));
const { fingerprint } = await import(path.join(ROOT, 'dist/capture/transcript-file.js'));
const { systemClock } = await import(path.join(ROOT, 'dist/lib/time.js'));

/** This process's environment without Laneboard settings, plus `extra`. */
function env(extra) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('LANEBOARD_')),
  );
  return { ...clean, ...extra };
}

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

// Through GNU time when it is there, for the CPU time (user + sys) too: it varies less than the
// elapsed time on a machine that is not idle.
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** One run: elapsed ms from spawn to exit, and CPU ms (null without GNU time). */
function timeRun(command, args, options) {
  const [file, argv] = GNU_TIME ? [GNU_TIME, ['-f', 'cpu %U %S', command, ...args]] : [command, args];
  const started = process.hrtime.bigint();
  const result = spawnSync(file, argv, {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    ...options,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
  return { ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
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
      target: true,
      run: () => timeRun(process.execPath, [BIN, '--help'], { env: env({}) }),
    },
    {
      name: 'laneboard capture claude, nothing new',
      runs: RUNS,
      target: true,
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
  // One warm-up run each (file system cache), then the cases interleaved so load changes hit all alike.
  for (const c of cases) c.run();
  const times = new Map(cases.map((c) => [c, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const c of cases) if (round < c.runs) times.get(c).push(c.run());
  }

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

  const baseline = median(times.get(cases[0]).map((t) => t.ms));
  let missed = false;
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    'case'.padEnd(40),
    'median ms'.padStart(10),
    'min ms'.padStart(8),
    'over node -e 0'.padStart(15),
    'CPU ms'.padStart(8),
    '  target',
  );
  for (const c of cases) {
    const ms = times.get(c).map((t) => t.ms);
    const cpu = times.get(c).map((t) => t.cpuMs);
    const m = median(ms);
    const verdict = c.target ? (m < TARGET_MS ? `< ${TARGET_MS} ok` : `>= ${TARGET_MS} MISSED`) : '';
    if (c.target && m >= TARGET_MS) missed = true;
    console.log(
      c.name.padEnd(40),
      m.toFixed(0).padStart(10),
      Math.min(...ms)
        .toFixed(0)
        .padStart(8),
      (c === cases[0] ? '' : `+${(m - baseline).toFixed(0)}`).padStart(15),
      (cpu[0] === null ? '-' : median(cpu).toFixed(0)).padStart(8),
      ` ${verdict}`,
    );
  }
  process.exitCode = missed ? 1 : 0;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
