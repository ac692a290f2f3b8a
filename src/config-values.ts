import { isIP } from 'node:net';
import { formatDuration, parseDuration } from './lib/duration.js';

/*
 * The readers of single settings that config.ts builds the configuration from: each takes the
 * environment and the variable's name, and throws a ConfigError naming the variable on a bad value.
 */

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export function text(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function duration(env: Env, name: string, fallback: string, minMs = 1): number {
  const raw = text(env, name) ?? fallback;
  const ms = parseDuration(raw);
  if (ms === null) {
    throw new ConfigError(name, `must be a duration such as 250ms, 10s, 5m, 2h or 14d, got "${raw}"`);
  }
  if (ms < minMs) throw new ConfigError(name, `must be at least ${formatDuration(minMs)}, got "${raw}"`);
  return ms;
}

// A name made of DNS labels; the listen call itself reports a name that does not resolve.
export const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function host(env: Env, name: string, fallback: string): string {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (isIP(raw) === 0 && !HOSTNAME.test(raw)) {
    throw new ConfigError(name, `must be an IP address or a host name such as 0.0.0.0 or ::, got "${raw}"`);
  }
  return raw;
}

export function boolean(env: Env, name: string): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return false;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = text(env, name);
  if (raw === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}
