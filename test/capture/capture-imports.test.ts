import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/run-cli.js';
import { importStatementsOf } from '../support/layering.js';

// The capture hooks run at every answer of the agent: what `laneboard capture ...` can load is checked
// here from the source (every import, static or `import()`, that survives compilation), so a change
// that reaches the server's code fails before anyone measures a slow hook. test/cli/lean-start.test.ts
// records what a real run loads.

const SERVER_ROOMS = /^src\/(db|http|domain|webhooks|live|metrics|auth)\/|^src\/[^/]+\.ts$/;
const PACKAGE_IMPORT =
  /(?:^|[\s;])(?:import|export)\s(?!type\s)[^'"]*?from\s*['"]([^'".][^'"]*)['"]|import\(\s*['"]([^'".][^'"]*)['"]\s*\)/g;

function source(file: string): string {
  return fs.readFileSync(path.join(PROJECT_ROOT, file.replace(/\.js$/, '.ts')), 'utf8');
}

/** Every project file reachable from `entry` through imports that are not type-only, and their packages. */
function moduleGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const ts = file.replace(/\.js$/, '.ts');
    if (files.has(ts)) return;
    files.add(ts);
    const text = source(ts);
    for (const match of text.matchAll(PACKAGE_IMPORT)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith('node:')) continue;
      const [scope = '', name = ''] = specifier.split('/');
      packages.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
    }
    for (const { target, typeOnly } of importStatementsOf(ts, text)) if (!typeOnly) visit(target);
  };
  visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

describe('what the capture commands can load', () => {
  it('capture claude, copilot and status: no database, HTTP server, domain or server packages', () => {
    const { files, packages } = moduleGraph('src/cli/capture-command.ts');
    expect(files).toContain('src/capture/capture-copilot.ts');
    expect(files).toContain('src/capture/capture-status.ts');
    expect(files.filter((file) => SERVER_ROOMS.test(file))).toEqual([]);
    expect(files.filter((file) => !/^src\/(capture|lib|cli)\//.test(file))).toEqual([]);
    // No package at all: commander comes with the command table (cli/index.ts), and the API client
    // speaks node:http (undici alone costs about 200 ms of CPU to load).
    expect(packages).toEqual([]);
  });

  it('the scan sees a server import when there is one (it can fail)', () => {
    const { files } = moduleGraph('src/cli/server-side.ts');
    expect(files.filter((file) => SERVER_ROOMS.test(file)).length).toBeGreaterThan(0);
  });
});
