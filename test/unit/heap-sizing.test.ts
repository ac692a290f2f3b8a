import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The sizing changes process-wide V8 flags and depends on the heap's history, so each case runs in a
 * fresh Node process on the module compiled from its source.
 */
const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/lib/heap-sizing.ts');
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heap-sizing-'));
  const { outputText } = ts.transpileModule(fs.readFileSync(SOURCE, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  fs.writeFileSync(path.join(dir, 'heap-sizing.mjs'), outputText);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `body` after a preamble that allocates with much surviving; prints the semi-space size in MB. */
function run(body: string): number {
  const script = `
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { sizeHeap, reassertHeapSizing } from './heap-sizing.mjs';
const semiSpaceMb = () => {
  const s = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return (s.space_used_size + s.space_available_size) / 2 ** 20;
};
// Objects that survive a few scavenges each, with turns of the event loop in between (a server's).
async function churn() {
  let keep = [];
  for (let turn = 0; turn < 60; turn++) {
    for (let i = 0; i < 20_000; i++) {
      keep.push({ i, text: 'x' + i });
      if (keep.length > 100_000) keep = [];
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
${body}
process.stdout.write(String(semiSpaceMb()));
`;
  const file = path.join(dir, `case-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, script);
  // A script that hangs is killed (and the test fails), never left running.
  return Number(
    execFileSync(process.execPath, [file], { cwd: dir, timeout: 90_000, killSignal: 'SIGKILL' }).toString(),
  );
}

describe('heap sizing', () => {
  it('lets V8 grow the semi-spaces to 16 MB without it', () => {
    expect(run('await churn();')).toBeGreaterThan(8);
  });

  it('holds them at their start size until growth is allowed, then at the chosen size', () => {
    // Node 26's V8 (14.x) was seen growing them before growth was allowed (2.75 MB in one CI run of
    // 2026-11-27, within the limit; 1 MB in others): there only the limit is certain.
    const held = Number(process.versions.node.split('.')[0]) >= 26 ? 4.01 : 1.01;
    expect(
      run(
        `sizeHeap({ maxSemiSpaceMb: 4, oldGenerationGrowthPercent: 50, webAssemblyBaselineOnly: false }); await churn();`,
      ),
    ).toBeLessThan(held);
    const grown = run(`
const heap = sizeHeap({ maxSemiSpaceMb: 4, oldGenerationGrowthPercent: 50, webAssemblyBaselineOnly: false });
heap.allowYoungGrowth();
await churn();`);
    expect(grown).toBeGreaterThan(3);
    expect(grown).toBeLessThan(4.01);
  });

  it('keeps the limit after a worker thread started (which resets the growth factor)', () => {
    const grown = run(`
const heap = sizeHeap({ maxSemiSpaceMb: 4, oldGenerationGrowthPercent: 50, webAssemblyBaselineOnly: false });
heap.allowYoungGrowth();
await churn();
const worker = new Worker('setTimeout(() => {}, 50)', { eval: true });
worker.once('online', reassertHeapSizing);
await new Promise((resolve) => worker.once('exit', resolve));
await churn();`);
    expect(grown).toBeLessThan(4.01);
  });
});
