import fs from 'node:fs';
import path from 'node:path';

/**
 * The rooms of src/ and which rooms each may import (docs/architecture.md). A file directly in src/
 * (main, runtime, app, services, config) is the composition root and may import anything.
 */
export const ALLOWED_IMPORTS: Record<string, readonly string[] | '*'> = {
  root: '*',
  lib: [],
  db: ['lib'],
  schemas: ['lib'],
  domain: ['db', 'lib', 'schemas'],
  webhooks: ['domain', 'db', 'lib'],
  // http/routes/mcp.ts serves the MCP server at POST /mcp, so http/ may use mcp/ (never the reverse).
  http: ['domain', 'schemas', 'lib', 'mcp'],
  mcp: ['domain', 'schemas', 'lib'],
  capture: ['lib'],
  cli: ['root', 'domain', 'db', 'lib', 'capture', 'mcp'],
};

export interface Violation {
  file: string;
  imports: string;
  reason: string;
}

/** The room of a path relative to the project root (`src/<room>/...`), `root` for files in src/. */
export function roomOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? (parts[1] as string) : 'root';
}

// Static imports and re-exports (also `import type`), and dynamic import() with a literal.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative imports of one source text, resolved to project paths (`src/...`). */
export function importsOf(file: string, source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const target = match[1] ?? match[2];
    if (target?.startsWith('.'))
      found.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), target)));
  }
  return found;
}

/** Every import that breaks the rules, for files given as project path → source text. */
export function findViolations(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  for (const [file, source] of files) {
    const from = roomOf(file);
    const allowed = ALLOWED_IMPORTS[from];
    if (allowed === undefined) {
      violations.push({
        file,
        imports: '',
        reason: `unknown room "${from}": add it to docs/architecture.md and ALLOWED_IMPORTS`,
      });
      continue;
    }
    for (const target of importsOf(file, source)) {
      if (!target.startsWith('src/')) continue;
      const to = roomOf(target);
      if (to === from || allowed === '*' || allowed.includes(to)) continue;
      violations.push({
        file,
        imports: target,
        reason: `${from}/ may not import ${to === 'root' ? 'src/*.ts' : `${to}/`}`,
      });
    }
  }
  return violations;
}

/** Every .ts file under src/, as project path → source text. */
export function readSources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts')) files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  walk('src');
  return files;
}

/** Pairs of rooms whose files import each other (both directions present), from the actual imports. */
export function mutualRooms(files: ReadonlyMap<string, string>): string[] {
  const edges = new Set<string>();
  for (const [file, source] of files) {
    for (const target of importsOf(file, source)) {
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from !== to && target.startsWith('src/')) edges.add(`${from}>${to}`);
    }
  }
  return [...edges]
    .map((edge) => edge.split('>') as [string, string])
    .filter(([from, to]) => from < to && edges.has(`${to}>${from}`))
    .map(([from, to]) => `${from} <-> ${to}`);
}
