// Where a process's memory goes, for memory work (docs/decisions.md, "Server memory"). Preload it:
//
//   BENCH_SERVER_ARGS="--import ./bench/heap-probe.mjs" node bench/api-bench.mjs    the API servers
//   node --import ./bench/heap-probe.mjs bench/webhook-delivery.mjs                 the delivery bench
//
// Every time the resident size passes its last peak by 2 MB it writes one line to stderr: RSS, its
// anonymous part (what is not the node binary and libraries), the V8 heap committed and V8's own malloc,
// and each heap space as [committed, used] MB. On exit (or SIGUSR2) it writes the collections by kind
// (1 scavenge, 2 mark-compact, 4 incremental marking, 8 weak callbacks, 16 full) as [count, ms].
import fs from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

const MB = 1024 * 1024;
const collections = {};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind ?? 0;
    collections[kind] ??= [0, 0];
    collections[kind][0]++;
    collections[kind][1] += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

const statm = fs.openSync('/proc/self/statm', 'r');
const buffer = Buffer.alloc(200);
let peak = 0;
setInterval(() => {
  const n = fs.readSync(statm, buffer, 0, buffer.length, 0);
  const [, residentPages, sharedPages] = buffer.toString('latin1', 0, n).split(' ').map(Number);
  const rss = (residentPages * 4096) / MB;
  if (rss < peak + 2) return;
  peak = rss;
  const heap = v8.getHeapStatistics();
  const spaces = Object.fromEntries(
    v8
      .getHeapSpaceStatistics()
      .filter((s) => s.space_size > 0)
      .map((s) => [
        s.space_name.replace('_space', ''),
        [Math.round(s.space_size / MB), Math.round(s.space_used_size / MB)],
      ]),
  );
  process.stderr.write(
    `heap-probe ${process.pid} rss ${Math.round(rss)} anon ${Math.round(rss - (sharedPages * 4096) / MB)} heap ${Math.round(heap.total_physical_size / MB)} v8-malloc ${Math.round(heap.malloced_memory / MB)} ${JSON.stringify(spaces)}\n`,
  );
}, 5).unref();

const report = () => {
  const rounded = Object.fromEntries(
    Object.entries(collections).map(([k, [n, ms]]) => [k, [n, Math.round(ms)]]),
  );
  process.stderr.write(`heap-probe ${process.pid} collections ${JSON.stringify(rounded)}\n`);
};
process.on('SIGUSR2', report);
process.on('exit', report);
