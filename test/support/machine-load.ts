import os from 'node:os';

/*
 * Timing promises are checked against the machine the suite runs on. CI shares two cores, and other
 * work (another suite, a build) can make every process there several times slower than it is alone.
 */

/** Whether the machine has room: fewer runnable processes (1-minute load) than cores. */
export function machineHasRoom(): boolean {
  return (os.loadavg()[0] ?? Number.POSITIVE_INFINITY) < os.availableParallelism();
}

/**
 * How much slower a process runs than alone, at least 1: the 1-minute load over the cores. A bound
 * measured on an idle machine is multiplied by it, so a busy machine's slowness is not taken for the
 * code's while a regression that is many times slower still fails.
 */
export function loadFactor(): number {
  return Math.max(1, (os.loadavg()[0] ?? 0) / os.availableParallelism());
}
