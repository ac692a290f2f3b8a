// Timing whole CLI processes, as the start-up and capture-hook benches do: runs through GNU time when it
// is there, for the CPU time (user + sys) too, which varies less than elapsed time on a busy machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/laneboard.js');
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** This process's environment without Laneboard's settings (nor DATABASE_URL, PORT, COPILOT_HOME), plus `extra`. */
export function cleanEnv(extra) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(LANEBOARD_|DATABASE_URL$|PORT$|COPILOT_HOME$)/.test(name),
    ),
  );
  return { ...clean, ...extra };
}

/** One run of `command args` from the project root: elapsed ms from spawn to exit, and CPU ms (null without GNU time). */
export function timeRun(command, args, options) {
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

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs every case once (warm-up: file system cache), then `runs` rounds of all cases interleaved, so
 * load changes hit all alike; a case with `runs` of its own runs in that many rounds only.
 */
export function timeCases(cases, runs) {
  for (const c of cases) c.run();
  const times = new Map(cases.map((c) => [c, []]));
  for (let round = 0; round < runs; round++) {
    for (const c of cases) if (round < (c.runs ?? runs)) times.get(c).push(c.run());
  }
  return times;
}

/**
 * Prints the machine, then a row per case: median and best elapsed ms, the median over the first case
 * (the baseline), median CPU ms, and against the case's `target` (ms) if it has one. Returns whether a
 * target was missed.
 */
export function printTimes(cases, times, { width, heading = '' }) {
  const baseline = median(times.get(cases[0]).map((t) => t.ms));
  let missed = false;
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}${heading}`,
  );
  console.log(
    'case'.padEnd(width),
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
    const verdict = c.target ? (m < c.target ? `< ${c.target} ok` : `>= ${c.target} MISSED`) : '';
    if (c.target && m >= c.target) missed = true;
    console.log(
      c.name.padEnd(width),
      m.toFixed(0).padStart(10),
      Math.min(...ms)
        .toFixed(0)
        .padStart(8),
      (c === cases[0] ? '' : `+${(m - baseline).toFixed(0)}`).padStart(15),
      (cpu[0] === null ? '-' : median(cpu).toFixed(0)).padStart(8),
      ` ${verdict}`,
    );
  }
  return missed;
}
