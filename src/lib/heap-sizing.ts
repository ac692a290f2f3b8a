import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/*
 * How a server's V8 heap grows (docs/decisions.md, "Server memory"). V8's defaults suit a short, busy
 * program, not a server whose live heap is about 25 MB:
 * - The young generation's two semi-spaces double (up to 16 MB each, 32 MB committed) whenever more has
 *   survived scavenges than they hold, which loading the modules does at once; they then stay at that
 *   size, though a request's objects live for one request. `--max-semi-space-size` would cap them, but
 *   only on the command line (the heap is sized when the isolate is made, before any of our code runs).
 *   The growth factor, though, is read at each growth: it is kept at 1 (no growth) while the
 *   semi-spaces hold the chosen size, and at 2 below it, looked at after each collection.
 * - After a full collection V8 lets the old generation grow by up to 4 times the live size before the
 *   next one. `--heap-growing-percent` (read at each full collection) bounds that growth.
 * - undici parses HTTP responses with llhttp compiled to WebAssembly. V8 optimises its hot functions
 *   (one is a very large state machine) with TurboFan in the background, which took 20–35 MB of
 *   compiler memory for a few seconds when webhook deliveries started. `--liftoff-only` keeps
 *   WebAssembly in its baseline tier (JavaScript is still optimised); parsing a webhook's short answer
 *   there cost nothing measurable.
 * Flags are per process: worker threads share them. V8 puts the growth factor back to 2 when it makes
 * a worker's heap, so whoever starts a worker calls `reassertHeapSizing()` once it is online.
 */

const MiB = 1024 * 1024;

export interface HeapSizing {
  /** Largest semi-space (MB, a power of two: V8 grows them by doubling); V8's own maximum is 16. */
  maxSemiSpaceMb: number;
  /** How far (percent of the live size) the old generation grows before the next full collection. */
  oldGenerationGrowthPercent: number;
  /** Keep WebAssembly (undici's HTTP parser) in its baseline compiler. */
  webAssemblyBaselineOnly: boolean;
}

export interface HeapSizingControl {
  /** From now on, lets the semi-spaces grow (by doubling) up to `maxSemiSpaceMb`. */
  allowYoungGrowth(): void;
  /** Stops watching the semi-spaces and gives V8 its default growth back. */
  stop(): void;
}

/** The usable size of one semi-space (what objects may take before the next scavenge). */
function semiSpaceBytes(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space ? space.space_used_size + space.space_available_size : 0;
}

function setSemiSpaceGrowthFactor(factor: 1 | 2): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/** The process's sizing, while one is applied. */
let applied: { sizing: HeapSizing; factor: 1 | 2 } | null = null;

/** Sets the flags again (after a worker thread started: making its heap resets the growth factor). */
export function reassertHeapSizing(): void {
  if (!applied) return;
  v8.setFlagsFromString(`--heap-growing-percent=${applied.sizing.oldGenerationGrowthPercent}`);
  if (applied.sizing.webAssemblyBaselineOnly) v8.setFlagsFromString('--liftoff-only');
  setSemiSpaceGrowthFactor(applied.factor);
}

/**
 * Applies `sizing` to this process's heap. The semi-spaces stay at their start size (1 MB) until
 * `allowYoungGrowth()`, so that loading the modules does not size them for its own burst of long-lived
 * objects.
 */
export function sizeHeap(sizing: HeapSizing): HeapSizingControl {
  const state: { sizing: HeapSizing; factor: 1 | 2 } = { sizing, factor: 1 };
  applied = state;
  reassertHeapSizing();
  // Usable bytes are a little under the semi-space's size (page headers): compare with 90 % of it.
  const limit = sizing.maxSemiSpaceMb * MiB * 0.9;
  const check = () => {
    const next = semiSpaceBytes() < limit ? 2 : 1;
    if (next === state.factor) return;
    state.factor = next;
    setSemiSpaceGrowthFactor(next);
  };
  const observer = new PerformanceObserver(check);
  return {
    allowYoungGrowth() {
      check();
      observer.observe({ entryTypes: ['gc'] });
    },
    stop() {
      observer.disconnect();
      if (applied === state) applied = null;
      setSemiSpaceGrowthFactor(2);
    },
  };
}
