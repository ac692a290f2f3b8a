import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory of this run where every spawned child leaves its pid until it has exited. */
    childRegistry: string;
  }
}

const live = new Set<ChildProcess>();

function registryDir(): string | null {
  try {
    return inject('childRegistry') ?? null;
  } catch {
    // Outside a vitest worker (a script importing the helpers): nothing to register with.
    return null;
  }
}

/**
 * Tracks a spawned child until it exits: the worker kills what is still running when it exits, and the
 * run's global teardown reports (and kills) any child that outlived its worker.
 */
export function trackChild(child: ChildProcess): ChildProcess {
  const pid = child.pid;
  if (pid === undefined) return child;
  live.add(child);
  const dir = registryDir();
  const file = dir === null ? null : path.join(dir, String(pid));
  if (file !== null) fs.writeFileSync(file, `${process.pid} ${child.spawnfile} ${child.spawnargs.join(' ')}`);
  child.once('exit', () => {
    live.delete(child);
    if (file !== null) fs.rmSync(file, { force: true });
  });
  return child;
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when `child` has exited (at once if it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Sends `signal` and waits for the exit; if the child is still running after `graceMs` (a shutdown that
 * hangs), kills it for good and waits for that exit.
 */
export async function killAndWait(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGKILL',
  graceMs = 30_000,
): Promise<void> {
  if (hasExited(child)) return;
  const exited = exitOf(child);
  child.kill(signal);
  if (signal === 'SIGKILL') return exited;
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace over'>((resolve) => {
    timer = setTimeout(() => resolve('grace over'), graceMs);
  });
  const first = await Promise.race([exited, graceOver]);
  clearTimeout(timer);
  if (first === 'grace over') {
    child.kill('SIGKILL');
    await exited;
  }
}

process.once('exit', () => {
  // The worker is going away (its tests are over, or it failed): its servers must not outlive it.
  for (const child of live) child.kill('SIGKILL');
});
