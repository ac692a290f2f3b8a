import fs from 'node:fs';
import path from 'node:path';

/**
 * THE layer rules: the rooms of src/ and web/src/ and which rooms each may import. The table in
 * docs/architecture.md is checked against this (test/unit/layering.test.ts); nothing else states them.
 * A file directly in src/ (main, runtime, app, services, config) is the composition root (`root`) and
 * may import anything; `web` is the browser UI (web/src/).
 */
export const ALLOWED_IMPORTS: Record<string, readonly string[] | '*'> = {
  root: '*',
  lib: [],
  db: ['lib'],
  schemas: ['lib'],
  domain: ['db', 'lib', 'schemas'],
  // Consumers of the activity: neither knows the other, and the domain knows neither.
  webhooks: ['domain', 'db', 'lib'],
  live: ['domain', 'db', 'lib'],
  // Prometheus metrics: read the database and the process; the root feeds them the rest (callbacks).
  metrics: ['db', 'lib'],
  // mcp/ and capture/ are clients of the external API: its schemas, never the server's code.
  mcp: ['schemas', 'lib'],
  capture: ['schemas', 'lib'],
  // The OpenID Connect relying party (openid-client): the composition root hands it to http/ as an interface.
  auth: ['lib'],
  // http/routes/mcp.ts serves the MCP server at POST /mcp, so http/ may use mcp/ (never the reverse).
  http: ['domain', 'schemas', 'lib', 'mcp', 'live'],
  // `laneboard backup` / `restore`: copies the database (its connections, migrations) and the key file.
  backup: ['db', 'lib'],
  cli: ['root', 'domain', 'db', 'lib', 'schemas', 'capture', 'mcp', 'backup'],
  web: [],
};

/** Rooms a room may import types from only (`import type`), beyond ALLOWED_IMPORTS. */
export const TYPE_ONLY_IMPORTS: Record<string, readonly string[]> = {
  web: ['schemas'],
};

export interface Violation {
  file: string;
  imports: string;
  reason: string;
}

/**
 * The room of a path relative to the project root: `src/<room>/...`, `root` for files in src/, `web`
 * for web/src/; null for anything else (outside every room).
 */
export function roomOf(file: string): string | null {
  if (file.startsWith('web/src/')) return 'web';
  if (!file.startsWith('src/')) return null;
  const parts = file.split('/');
  return parts.length > 2 ? (parts[1] as string) : 'root';
}

// Static imports and re-exports (also `import type`), and dynamic import() with a literal.
const IMPORT =
  /(?:^|[\s;])(import|export)\s(type\s)?[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ImportOf {
  /** The imported path, resolved to a project path (`src/...`, `web/src/...`). */
  target: string;
  /** `import type ...` / `export type ...`: erased from the built code. */
  typeOnly: boolean;
}

/** Relative imports of one source text, resolved to project paths, with whether each is type-only. */
export function importStatementsOf(file: string, source: string): ImportOf[] {
  const found: ImportOf[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const target = match[3] ?? match[4];
    if (!target?.startsWith('.')) continue;
    found.push({
      target: path.posix.normalize(path.posix.join(path.posix.dirname(file), target)),
      typeOnly: match[2] !== undefined,
    });
  }
  return found;
}

/** Relative imports of one source text, resolved to project paths (`src/...`). */
export function importsOf(file: string, source: string): string[] {
  return importStatementsOf(file, source).map((found) => found.target);
}

/** Every import that breaks the rules, for files given as project path → source text. */
export function findViolations(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  for (const [file, source] of files) {
    const from = roomOf(file) ?? '(none)';
    const allowed = ALLOWED_IMPORTS[from];
    if (allowed === undefined) {
      violations.push({
        file,
        imports: '',
        reason: `unknown room "${from}": add it to docs/architecture.md and ALLOWED_IMPORTS`,
      });
      continue;
    }
    for (const { target, typeOnly } of importStatementsOf(file, source)) {
      const to = roomOf(target);
      if (to === null) {
        // Only the web UI could reach outside the rooms (src/ files resolve within src/).
        if (from === 'web')
          violations.push({ file, imports: target, reason: 'web/ may not import outside the rooms' });
        continue;
      }
      if (to === from || allowed === '*' || allowed.includes(to)) continue;
      if (typeOnly && TYPE_ONLY_IMPORTS[from]?.includes(to)) continue;
      const what = to === 'root' ? 'src/*.ts' : `${to}/`;
      const typesToo = TYPE_ONLY_IMPORTS[from]?.includes(to) ? ' except with `import type`' : '';
      violations.push({ file, imports: target, reason: `${from}/ may not import ${what}${typesToo}` });
    }
  }
  return violations;
}

/** Every .ts/.tsx file under src/ and web/src/, as project path → source text. */
export function readSources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name)) files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  walk('src');
  walk('web/src');
  return files;
}

/**
 * The rules as docs/architecture.md's table states them: room → the rooms in backticks in its last
 * column (`anything` for the composition root), and the rooms named after "types from".
 */
export function documentedRules(markdown: string): Map<string, { imports: string[] | '*'; types: string[] }> {
  const rules = new Map<string, { imports: string[] | '*'; types: string[] }>();
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const room = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!room || cells.length < 5) continue;
    const last = cells[cells.length - 2] as string;
    const [plain, types = ''] = last.split(/types from/);
    const names = (text: string) =>
      [...text.matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, ''));
    const key = room === 'src/*.ts' ? 'root' : room === 'web/src/' ? 'web' : room.replace(/\/$/, '');
    rules.set(key, {
      imports: /anything/.test(plain ?? '')
        ? '*'
        : names(plain ?? '').map((n) => (n === 'src/*.ts' ? 'root' : n)),
      types: names(types),
    });
  }
  return rules;
}

/** Pairs of rooms whose files import each other (both directions present), from the actual imports. */
export function mutualRooms(files: ReadonlyMap<string, string>): string[] {
  const edges = new Set<string>();
  for (const [file, source] of files) {
    for (const target of importsOf(file, source)) {
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from !== null && to !== null && from !== to) edges.add(`${from}>${to}`);
    }
  }
  return [...edges]
    .map((edge) => edge.split('>') as [string, string])
    .filter(([from, to]) => from < to && edges.has(`${to}>${from}`))
    .map(([from, to]) => `${from} <-> ${to}`);
}
