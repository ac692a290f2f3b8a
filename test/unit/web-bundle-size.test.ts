import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, WEB_DIST } from '../support/web-build.js';

/** The budget for the JavaScript a browser downloads to show the first page (issue 10). */
const BUDGET_GZIP_BYTES = 200 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function gzipSize(file: string): number {
  return zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, file)), { level: 9 }).length;
}

/** A chunk and everything it imports statically, as manifest keys. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

describe('first page JavaScript', () => {
  let manifest: Manifest;
  beforeAll(() => {
    ensureWebBuilt();
    manifest = JSON.parse(fs.readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  }, 120_000);

  it(`stays under ${BUDGET_GZIP_BYTES / 1024} KB gzipped, with the heaviest lazy page it may open`, () => {
    const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
    expect(entries).toHaveLength(1);
    const [entryKey, entry] = entries[0]!;
    const loaded = closure(manifest, entryKey);
    const jsSize = (keys: Iterable<string>) =>
      [...keys].reduce(
        (sum, key) => sum + (manifest[key]?.file.endsWith('.js') ? gzipSize(manifest[key].file) : 0),
        0,
      );
    const base = jsSize(loaded);
    // The first page is one lazily loaded route: count the heaviest one with what it imports.
    const heaviestPage = Math.max(
      0,
      ...(entry.dynamicImports ?? []).map((key) =>
        jsSize([...closure(manifest, key)].filter((k) => !loaded.has(k))),
      ),
    );
    const total = base + heaviestPage;
    expect(
      total,
      `first page JS is ${(total / 1024).toFixed(1)} KB gzipped (entry ${(base / 1024).toFixed(1)} KB)`,
    ).toBeLessThan(BUDGET_GZIP_BYTES);
  });

  it('index.html loads no inline script (the Content-Security-Policy forbids it)', () => {
    const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(body?.trim()).toBe('');
    }
  });
});
