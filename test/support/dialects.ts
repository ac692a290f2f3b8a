import { afterAll, beforeAll, describe } from 'vitest';
import type { Dialect } from '../../src/db/schema.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from './database.js';
import { buildTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/**
 * One `describe` per dialect, named `<name> (<dialect>)`. Without TEST_DATABASE_URL the PostgreSQL block
 * is skipped: its tests are reported as skipped (never as passed) and none of its hooks run.
 */
export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const { dialect, skip } of DIALECTS) {
    describe.skipIf(skip)(`${name} (${dialect})`, () => body(dialect));
  }
}

/**
 * A value built in `beforeAll` and disposed of in `afterAll` of the enclosing describe, usable by name in
 * its hooks and tests: the handle forwards to the built value, and throws when read before it is built
 * (at collection time, or after the build failed) or after it was disposed of.
 */
export function useFixture<T extends object>(
  what: string,
  build: () => Promise<T>,
  dispose: (value: T) => Promise<void>,
): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await build();
  });
  afterAll(async () => {
    const built = value;
    value = undefined;
    if (built !== undefined) await dispose(built);
  });
  const current = (): T => {
    if (value === undefined) throw new Error(`${what} is used outside the tests and hooks it was built for`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      // Not a promise: `await handle` or returning it from an async function must not read the value.
      if (property === 'then') return undefined;
      const target = current();
      const member: unknown = Reflect.get(target, property, target);
      return typeof member === 'function' ? member.bind(target) : member;
    },
    set(_, property, member: unknown) {
      return Reflect.set(current(), property, member);
    },
    has(_, property) {
      return Reflect.has(current(), property);
    },
  });
}

/** The test app (a fresh database of `dialect`, the runtime and the HTTP app) for the enclosing describe. */
export function useTestApp(dialect: Dialect, options: TestAppOptions = {}): TestApp {
  return useFixture(
    `the ${dialect} test app`,
    () => buildTestApp(dialect, options),
    (t) => t.close(),
  );
}

/** A fresh, migrated database of `dialect` for the enclosing describe, dropped afterwards. */
export function useTestDatabase(dialect: Dialect): TestDatabase {
  return useFixture(
    `the ${dialect} test database`,
    () => createTestDatabase(dialect),
    (db) => db.drop(),
  );
}
