import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}
interface Manifest {
  engines: { node: string };
}
interface TestedVersions {
  full: string[];
  smoke: string[];
  /** Tested version → the release whose headers better-sqlite3 is built against for it. */
  nativeHeaders: Record<string, string>;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as T;
}

const manifest = readJson<Manifest>('package.json');
const lock = readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
const tested = readJson<TestedVersions>('scripts/node-versions.json');

/**
 * The oldest release of each supported line, the versions .ci/run runs (the machine's Node 20 is not
 * pinned: 20.19.0 stands for it) and a later 20.x that is the line's last patch release.
 */
const SUPPORTED = ['20.19.0', '20.20.2', '22.13.0', '24.0.0', '26.0.0', ...tested.full, ...tested.smoke];
/** Lines nobody tests: an install there should warn. */
const UNSUPPORTED = ['18.20.8', '20.18.3', '21.7.3', '22.12.0', '23.11.1', '25.9.0', '27.0.0'];

// npm warns EBADENGINE exactly when this is false (npm-install-checks uses the same options).
const accepts = (version: string, range: string) =>
  semver.satisfies(version, range, { includePrerelease: true });

/** Each locked package whose `engines.node` refuses `version`, as `path (range)`. */
function refusing(version: string, packages = lock.packages): string[] {
  const refused: string[] = [];
  for (const [where, entry] of Object.entries(packages)) {
    // An old form of `engines` is a list of strings, which npm does not check.
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (where === '' || range === undefined) continue;
    if (!accepts(version, range)) refused.push(`${where} (${range})`);
  }
  return refused;
}

describe('supported Node.js versions', () => {
  it('are the ones package.json declares, and no others', () => {
    for (const version of SUPPORTED) expect(accepts(version, manifest.engines.node), version).toBe(true);
    for (const version of UNSUPPORTED) expect(accepts(version, manifest.engines.node), version).toBe(false);
  });

  it('include the exact versions CI runs, one per line besides the machine’s 20', () => {
    const majors = [...tested.full, ...tested.smoke].map((version) => semver.major(version)).sort();
    expect(majors).toEqual([22, 24, 26]);
    for (const version of [...tested.full, ...tested.smoke])
      expect(semver.valid(version), version).toBe(version);
  });

  // Node 24.19 put environment cleanup hooks into node_object_wrap.h, which better-sqlite3 12 compiles
  // in: built against those headers it aborts when a statement is freed outside JavaScript. The
  // release-built binary (and CI's build) uses the headers of a 24 before that, with the same ABI.
  it('build better-sqlite3 for 24 against the headers of a 24 before 24.19', () => {
    const tested24 = [...tested.full, ...tested.smoke].filter((version) => semver.major(version) === 24);
    for (const version of tested24) {
      const headers = tested.nativeHeaders[version];
      expect(headers, version).toBeDefined();
      expect(semver.major(headers ?? ''), version).toBe(24);
      expect(semver.lt(headers ?? '', '24.19.0'), version).toBe(true);
    }
    for (const version of Object.keys(tested.nativeHeaders))
      expect([...tested.full, ...tested.smoke]).toContain(version);
  });

  it('are the ones docs/deployment.md names', () => {
    const deployment = fs.readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8');
    for (const version of [...tested.full, ...tested.smoke]) expect(deployment).toContain(`(${version})`);
    for (const range of manifest.engines.node.split(' || ')) expect(deployment).toContain(`\`${range}\``);
  });

  it.each(SUPPORTED)('install every locked package without an engine warning on %s', (version) => {
    expect(refusing(version)).toEqual([]);
  });

  it('report a package that needs a newer Node, as the lock had before its overrides', () => {
    const before = {
      '': { version: '0.1.0', engines: { node: '>=20.19.0' } },
      'node_modules/content-disposition': { version: '3.0.0', engines: { node: '>=22' } },
      'node_modules/@napi-rs/wasm-runtime': { engines: { node: '^20.19.0 || ^22.13.0 || >=23.5.0' } },
    };
    expect(refusing('20.19.0', before)).toEqual(['node_modules/content-disposition (>=22)']);
    expect(refusing('22.12.0', before)).toEqual([
      'node_modules/@napi-rs/wasm-runtime (^20.19.0 || ^22.13.0 || >=23.5.0)',
    ]);
  });
});

// package.json's `overrides` give @fastify/static and @fastify/cookie (and Fastify's inject) the last
// releases of content-disposition and cookie that support Node 20; their later majors changed the
// packaging (ESM only) and the engines, not the functions these callers use.
describe('the overridden dependencies', () => {
  const requireFrom = (dependent: string) => createRequire(createRequire(import.meta.url).resolve(dependent));

  it('give @fastify/static the content-disposition `create` it calls', () => {
    const { create } = requireFrom('@fastify/static')('content-disposition') as {
      create: (filename: string) => string;
    };
    expect(create('plan.txt')).toBe('attachment; filename=plan.txt');
    expect(create('naïve plan €.txt')).toBe(
      `attachment; filename="na?ve plan ?.txt"; filename*=UTF-8''na%C3%AFve%20plan%20%E2%82%AC.txt`,
    );
  });

  it('give @fastify/cookie and light-my-request the cookie functions they call', () => {
    for (const dependent of ['@fastify/cookie', 'light-my-request']) {
      const cookie = requireFrom(dependent)('cookie') as {
        parseCookie: (header: string) => Record<string, string | undefined>;
        stringifySetCookie: (cookie: Record<string, unknown>, options?: { encode?: undefined }) => string;
      };
      const header = cookie.stringifySetCookie(
        { name: 'lb_session', value: 'abc_DEF-123', httpOnly: true, sameSite: 'lax', path: '/', maxAge: 60 },
        { encode: undefined },
      );
      expect(header, dependent).toBe('lb_session=abc_DEF-123; Max-Age=60; Path=/; HttpOnly; SameSite=Lax');
      expect(cookie.parseCookie('lb_session=abc_DEF-123; other=a%20b'), dependent).toEqual({
        lb_session: 'abc_DEF-123',
        other: 'a b',
      });
    }
  });
});
