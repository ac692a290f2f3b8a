import path from 'node:path';
import ipaddr from 'ipaddr.js';
import {
  boolean,
  ConfigError,
  duration,
  type Env,
  HOSTNAME,
  host,
  integer,
  text,
  url,
} from './config-values.js';
import { formatDuration, parseDuration } from './lib/duration.js';

export { ConfigError } from './config-values.js';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  databasePoolSize: number;
  redisUrl: string | null;
  /** Raw master key text from the environment; null means "use or create the key file in dataDir". */
  secretKey: string | null;
  rateLimit: { max: number; windowMs: number };
  webhooks: {
    timeoutMs: number;
    retryDelaysMs: number[];
    allowHttp: boolean;
    allowPrivate: boolean;
    /** Finished deliveries (and events nothing refers to any more) older than this are deleted. */
    retentionMs: number;
  };
  /** Largest size of one uploaded asset, in bytes (the file's own bytes, multipart framing not counted). */
  assetMaxBytes: number;
  /** Activities older than this are deleted (LANEBOARD_ACTIVITY_RETENTION). */
  activityRetentionMs: number;
  /** Read notifications, and unread ones after a longer bound, older than these are deleted. */
  notificationRetention: { readMs: number; unreadMs: number };
  logLevel: string;
  /** Fastify `trustProxy`: which proxies' X-Forwarded-For to believe for the client address. */
  trustProxy: boolean | number | string[];
  /** A web UI session ends after this long without use (sliding expiry). */
  sessionTtlMs: number;
  /** LANEBOARD_METRICS_TOKEN: `GET /metrics` answers only with it as Bearer token; null = no metrics (404). */
  metricsToken: string | null;
  /** LANEBOARD_PUBLIC_URL without a trailing slash: where people reach the server (links, redirect URIs). */
  publicUrl: string | null;
  /** OpenID Connect single sign-on; null when LANEBOARD_OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `<publicUrl>/api/ui/oidc/callback`: the address to register at the identity provider. */
  redirectUri: string;
  /** Lower-cased email domains whose people become members at their first sign-in. */
  allowedDomains: string[];
  /** false: only owners sign in with a password. */
  passwordSignIn: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The only reader of process.env: every setting is validated here, once, at start. */
export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const secretKey = text(env, 'LANEBOARD_SECRET_KEY') ?? null;
  if (secretKey !== null && secretKey.length < 32) {
    throw new ConfigError('LANEBOARD_SECRET_KEY', 'must be at least 32 characters long');
  }
  if (databaseUrl !== null && secretKey === null) {
    throw new ConfigError('LANEBOARD_SECRET_KEY', 'is required when DATABASE_URL is set');
  }
  const delaysRaw = text(env, 'LANEBOARD_WEBHOOK_RETRY_DELAYS') ?? '1m,5m,30m,2h';
  const retryDelaysMs = delaysRaw.split(',').map((part) => {
    const ms = parseDuration(part);
    if (ms === null) {
      throw new ConfigError(
        'LANEBOARD_WEBHOOK_RETRY_DELAYS',
        `must be a comma-separated list of durations such as 1m,5m,30m,2h, got "${delaysRaw}"`,
      );
    }
    return ms;
  });
  const metricsToken = text(env, 'LANEBOARD_METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError('LANEBOARD_METRICS_TOKEN', 'must be at least 16 characters long');
  }
  const logLevel = text(env, 'LOG_LEVEL')?.toLowerCase() ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    host: host(env, 'HOST', '127.0.0.1'),
    port: integer(env, 'PORT', 3000, 0, 65535),
    dataDir: path.resolve(text(env, 'LANEBOARD_DATA_DIR') ?? './data'),
    databaseUrl,
    databasePoolSize: integer(env, 'LANEBOARD_DB_POOL_SIZE', 10, 1, 1000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    secretKey,
    rateLimit: {
      max: integer(env, 'LANEBOARD_RATE_LIMIT_MAX', 600, 1, 1_000_000_000),
      windowMs: duration(env, 'LANEBOARD_RATE_LIMIT_WINDOW', '1m', 1000),
    },
    webhooks: {
      timeoutMs: duration(env, 'LANEBOARD_WEBHOOK_TIMEOUT', '10s'),
      retryDelaysMs,
      allowHttp: boolean(env, 'LANEBOARD_WEBHOOK_ALLOW_HTTP'),
      allowPrivate: boolean(env, 'LANEBOARD_WEBHOOK_ALLOW_PRIVATE'),
      retentionMs: duration(env, 'LANEBOARD_WEBHOOK_RETENTION', '720h', 60_000),
    },
    assetMaxBytes: integer(env, 'LANEBOARD_ASSET_MAX_BYTES', 10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    // At least a day: the activity stream resumes from any cursor within it (docs/api.md).
    activityRetentionMs: duration(env, 'LANEBOARD_ACTIVITY_RETENTION', '720h', 24 * 3_600_000),
    notificationRetention: notificationRetention(env),
    logLevel,
    trustProxy: trustProxy(env, 'LANEBOARD_TRUST_PROXY'),
    sessionTtlMs: duration(env, 'LANEBOARD_SESSION_TTL', '14d', 60_000),
    metricsToken,
    ...singleSignOn(env),
  };
}

const DAY_MS = 86_400_000;

/**
 * LANEBOARD_NOTIFICATION_RETENTION (read ones, default 90 days) and ..._UNREAD_RETENTION (default 180
 * days, or the read retention when that is longer): at least a day each, unread never shorter than read.
 */
function notificationRetention(env: Env): { readMs: number; unreadMs: number } {
  const readMs = duration(env, 'LANEBOARD_NOTIFICATION_RETENTION', '90d', DAY_MS);
  const unreadName = 'LANEBOARD_NOTIFICATION_UNREAD_RETENTION';
  const unreadMs = duration(env, unreadName, formatDuration(Math.max(readMs, 180 * DAY_MS)), DAY_MS);
  if (unreadMs < readMs) {
    throw new ConfigError(
      unreadName,
      `must be at least LANEBOARD_NOTIFICATION_RETENTION (${formatDuration(readMs)}): unread notifications are kept at least as long as read ones, got "${text(env, unreadName)}"`,
    );
  }
  return { readMs, unreadMs };
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * LANEBOARD_PUBLIC_URL and the OIDC settings: all three of issuer, client id and secret or none; the
 * issuer over https (http only on a loopback address, for development and tests).
 */
function singleSignOn(env: Env): { publicUrl: string | null; oidc: OidcConfig | null } {
  const publicUrl = url(env, 'LANEBOARD_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null;
  const issuer = url(env, 'LANEBOARD_OIDC_ISSUER', ['http:', 'https:']);
  const clientId = text(env, 'LANEBOARD_OIDC_CLIENT_ID');
  const clientSecret = text(env, 'LANEBOARD_OIDC_CLIENT_SECRET');
  const domainsRaw = text(env, 'LANEBOARD_OIDC_ALLOWED_DOMAINS');
  const passwordRaw = text(env, 'LANEBOARD_OIDC_PASSWORD_SIGNIN');
  if (issuer === null) {
    for (const [name, value] of [
      ['LANEBOARD_OIDC_CLIENT_ID', clientId],
      ['LANEBOARD_OIDC_CLIENT_SECRET', clientSecret],
      ['LANEBOARD_OIDC_ALLOWED_DOMAINS', domainsRaw],
      ['LANEBOARD_OIDC_PASSWORD_SIGNIN', passwordRaw],
    ] as const) {
      if (value !== undefined) throw new ConfigError(name, 'is set but LANEBOARD_OIDC_ISSUER is not');
    }
    return { publicUrl, oidc: null };
  }
  const issuerUrl = new URL(issuer);
  if (issuerUrl.protocol === 'http:' && !LOOPBACK_HOSTS.test(issuerUrl.hostname)) {
    throw new ConfigError(
      'LANEBOARD_OIDC_ISSUER',
      'must start with https:// (http:// only on a loopback address)',
    );
  }
  if (clientId === undefined) {
    throw new ConfigError('LANEBOARD_OIDC_CLIENT_ID', 'is required when LANEBOARD_OIDC_ISSUER is set');
  }
  if (clientSecret === undefined) {
    throw new ConfigError('LANEBOARD_OIDC_CLIENT_SECRET', 'is required when LANEBOARD_OIDC_ISSUER is set');
  }
  if (publicUrl === null) {
    throw new ConfigError(
      'LANEBOARD_PUBLIC_URL',
      'is required when LANEBOARD_OIDC_ISSUER is set: the sign-in redirect URI is derived from it',
    );
  }
  const allowedDomains = (domainsRaw ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => domain !== '');
  for (const domain of allowedDomains) {
    if (!HOSTNAME.test(domain) || !domain.includes('.')) {
      throw new ConfigError(
        'LANEBOARD_OIDC_ALLOWED_DOMAINS',
        `must be a comma-separated list of email domains such as example.com,corp.example, got "${domain}"`,
      );
    }
  }
  return {
    publicUrl,
    oidc: {
      issuer,
      clientId,
      clientSecret,
      redirectUri: `${publicUrl}/api/ui/oidc/callback`,
      allowedDomains,
      passwordSignIn: passwordRaw === undefined ? true : boolean(env, 'LANEBOARD_OIDC_PASSWORD_SIGNIN'),
    },
  };
}

/**
 * `false` (default: the socket address is the client), `true` (trust every proxy), a hop count, or a
 * comma-separated list of proxy addresses/CIDR ranges. Behind a load balancer this makes the per-address
 * rate limit count clients rather than the balancer.
 */
function trustProxy(env: Env, name: string): boolean | number | string[] {
  const raw = text(env, name);
  if (raw === undefined || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!ipaddr.isValid(entry) && !isCidr(entry)) {
      throw new ConfigError(
        name,
        `must be true, false, a hop count or a list of addresses/CIDR ranges, got "${entry}"`,
      );
    }
  }
  return entries;
}

function isCidr(entry: string): boolean {
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}
