import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CliResult, PROJECT_ROOT, runCommand } from '../run-cli.js';

const RECORDER = path.join(PROJECT_ROOT, 'test/cli/support/record-loads.mjs');
const DIST = path.join(PROJECT_ROOT, 'dist');
const NODE_MODULES = path.join(PROJECT_ROOT, 'node_modules');

export interface LoadedModules {
  result: CliResult;
  /** Our built modules the process loaded, relative to dist/ ("cli/index.js"). */
  ours: string[];
  /** The npm packages it imported ("commander", "@modelcontextprotocol/sdk"). */
  packages: string[];
}

function packageOf(file: string): string {
  const [first = '', second = ''] = path.relative(NODE_MODULES, file).split(path.sep);
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/**
 * Runs `laneboard <args>` (node on bin/laneboard.js, as npx runs it) with a loader hook that records
 * every module loaded through the ES module loader, and sorts them into ours and packages'.
 */
export async function laneboardLoads(
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<LoadedModules> {
  const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-loads-')), 'loads.txt');
  try {
    const result = await runCommand(
      process.execPath,
      ['--import', RECORDER, path.join(PROJECT_ROOT, 'bin/laneboard.js'), ...args],
      { ...env, LANEBOARD_RECORD_LOADS: record },
      60_000,
      stdin,
    );
    const files = fs
      .readFileSync(record, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url));
    const ours = files.filter((f) => f.startsWith(`${DIST}${path.sep}`)).map((f) => path.relative(DIST, f));
    const packages = [
      ...new Set(files.filter((f) => f.startsWith(`${NODE_MODULES}${path.sep}`)).map(packageOf)),
    ];
    return { result, ours: ours.sort(), packages: packages.sort() };
  } finally {
    fs.rmSync(path.dirname(record), { recursive: true, force: true });
  }
}
