import { pino } from 'pino';
import { type Config, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { SecretBox } from '../../src/lib/secret-box.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime.js';

export const TEST_MASTER_KEY = 'test-master-key-0123456789abcdef0123456789';

/** The configuration of an empty environment, with overrides (tests never read process.env). */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({});
  return {
    ...base,
    ...overrides,
    webhooks: { ...base.webhooks, ...overrides.webhooks },
    rateLimit: { ...base.rateLimit, ...overrides.rateLimit },
  };
}

/**
 * The runtime as main.ts builds it, on a database a test already created and migrated, with the test
 * master key and a silent logger unless told otherwise.
 */
export function testRuntime(
  database: Database,
  options: RuntimeOptions & { config?: Partial<Config> } = {},
): Promise<Runtime> {
  const { config, ...rest } = options;
  return createRuntime(testConfig(config), {
    migrations: 'skip',
    secrets: new SecretBox(TEST_MASTER_KEY),
    log: pino({ level: 'silent' }),
    ...rest,
    database,
  });
}
