import { ConfigError, loadConfig } from '../../src/config.js';

/** The ConfigError `loadConfig` throws for `env`; fails the test if it throws anything else or accepts it. */
export function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}
