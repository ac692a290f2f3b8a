import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { formatDuration, parseDuration } from '../../src/lib/duration.js';
import { configError } from './config-support.js';

const SECRET = 's'.repeat(32);

describe('loadConfig defaults', () => {
  it('gives the contract defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      port: 3000,
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      databasePoolSize: 10,
      redisUrl: null,
      secretKey: null,
      rateLimit: { max: 600, windowMs: 60_000 },
      webhooks: {
        timeoutMs: 10_000,
        retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
        allowHttp: false,
        allowPrivate: false,
        retentionMs: 720 * 3_600_000,
      },
      assetMaxBytes: 10_485_760,
      activityRetentionMs: 720 * 3_600_000,
      notificationRetention: { readMs: 90 * 86_400_000, unreadMs: 180 * 86_400_000 },
      logLevel: 'info',
      trustProxy: false,
      sessionTtlMs: 14 * 24 * 3_600_000,
      metricsToken: null,
      publicUrl: null,
      oidc: null,
    });
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '  ', LANEBOARD_RATE_LIMIT_MAX: ' ' })).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      rateLimit: { max: 600 },
    });
  });
});

describe('loadConfig accepts valid values', () => {
  it.each([
    ['PORT', '8080', (c: ReturnType<typeof loadConfig>) => c.port, 8080],
    ['PORT', '0', (c) => c.port, 0],
    ['HOST', '0.0.0.0', (c) => c.host, '0.0.0.0'],
    ['HOST', '::', (c) => c.host, '::'],
    ['HOST', 'board.internal', (c) => c.host, 'board.internal'],
    ['LANEBOARD_DATA_DIR', '/var/lib/laneboard', (c) => c.dataDir, '/var/lib/laneboard'],
    ['LANEBOARD_DATA_DIR', 'rel/dir', (c) => c.dataDir, path.resolve('rel/dir')],
    ['REDIS_URL', 'redis://127.0.0.1:6379', (c) => c.redisUrl, 'redis://127.0.0.1:6379'],
    ['REDIS_URL', 'rediss://cache:6380/2', (c) => c.redisUrl, 'rediss://cache:6380/2'],
    ['LANEBOARD_SECRET_KEY', SECRET, (c) => c.secretKey, SECRET],
    ['LANEBOARD_RATE_LIMIT_MAX', '5', (c) => c.rateLimit.max, 5],
    ['LANEBOARD_RATE_LIMIT_WINDOW', '10s', (c) => c.rateLimit.windowMs, 10_000],
    ['LANEBOARD_RATE_LIMIT_WINDOW', '2h', (c) => c.rateLimit.windowMs, 7_200_000],
    ['LANEBOARD_WEBHOOK_TIMEOUT', '250ms', (c) => c.webhooks.timeoutMs, 250],
    ['LANEBOARD_WEBHOOK_RETRY_DELAYS', '10ms, 20ms,1s', (c) => c.webhooks.retryDelaysMs, [10, 20, 1000]],
    ['LANEBOARD_WEBHOOK_RETRY_DELAYS', '5m', (c) => c.webhooks.retryDelaysMs, [300_000]],
    ['LANEBOARD_WEBHOOK_ALLOW_HTTP', 'true', (c) => c.webhooks.allowHttp, true],
    ['LANEBOARD_WEBHOOK_ALLOW_HTTP', 'FALSE', (c) => c.webhooks.allowHttp, false],
    ['LANEBOARD_WEBHOOK_ALLOW_PRIVATE', '1', (c) => c.webhooks.allowPrivate, true],
    ['LANEBOARD_WEBHOOK_ALLOW_PRIVATE', 'no', (c) => c.webhooks.allowPrivate, false],
    ['LOG_LEVEL', 'debug', (c) => c.logLevel, 'debug'],
    ['LOG_LEVEL', 'WARN', (c) => c.logLevel, 'warn'],
    ['LANEBOARD_DB_POOL_SIZE', '25', (c) => c.databasePoolSize, 25],
    ['LANEBOARD_ASSET_MAX_BYTES', '1048576', (c) => c.assetMaxBytes, 1_048_576],
    ['LANEBOARD_METRICS_TOKEN', 'm'.repeat(16), (c) => c.metricsToken, 'm'.repeat(16)],
  ] as Array<[string, string, (c: ReturnType<typeof loadConfig>) => unknown, unknown]>)(
    '%s=%s',
    (name, value, read, expected) => {
      expect(read(loadConfig({ [name]: value }))).toEqual(expected);
    },
  );

  it('DATABASE_URL switches to PostgreSQL together with LANEBOARD_SECRET_KEY', () => {
    for (const url of ['postgres://u:p@db:5432/lb', 'postgresql://db/lb?sslmode=require']) {
      const config = loadConfig({ DATABASE_URL: url, LANEBOARD_SECRET_KEY: SECRET });
      expect(config.databaseUrl).toBe(url);
      expect(config.secretKey).toBe(SECRET);
    }
  });
});

describe('loadConfig rejects bad values with a ConfigError naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['HOST', 'not a host'],
    ['HOST', 'http://example.com'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://db/lb'],
    ['REDIS_URL', 'localhost:6379'],
    ['REDIS_URL', 'http://cache:6379'],
    ['LANEBOARD_SECRET_KEY', 'too-short'],
    ['LANEBOARD_RATE_LIMIT_MAX', '0'],
    ['LANEBOARD_RATE_LIMIT_MAX', 'many'],
    ['LANEBOARD_RATE_LIMIT_WINDOW', '1 minute'],
    ['LANEBOARD_RATE_LIMIT_WINDOW', '60'],
    ['LANEBOARD_RATE_LIMIT_WINDOW', '500ms'],
    ['LANEBOARD_WEBHOOK_TIMEOUT', '10'],
    ['LANEBOARD_WEBHOOK_TIMEOUT', '0s'],
    ['LANEBOARD_WEBHOOK_TIMEOUT', '-5s'],
    ['LANEBOARD_WEBHOOK_RETRY_DELAYS', '1m,,5m'],
    ['LANEBOARD_WEBHOOK_RETRY_DELAYS', '1m;5m'],
    ['LANEBOARD_WEBHOOK_RETRY_DELAYS', '1w'],
    ['LANEBOARD_SESSION_TTL', '30s'],
    ['LANEBOARD_WEBHOOK_ALLOW_HTTP', 'maybe'],
    ['LANEBOARD_WEBHOOK_ALLOW_PRIVATE', 'on please'],
    ['LOG_LEVEL', 'verbose'],
    ['LANEBOARD_DB_POOL_SIZE', '0'],
    ['LANEBOARD_DB_POOL_SIZE', 'ten'],
    ['LANEBOARD_ASSET_MAX_BYTES', '0'],
    ['LANEBOARD_ASSET_MAX_BYTES', '10MB'],
    ['LANEBOARD_ASSET_MAX_BYTES', '2000000000'],
    ['LANEBOARD_METRICS_TOKEN', 'm'.repeat(15)],
  ])('%s=%s', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message.startsWith(`${name}: `)).toBe(true);
  });

  it('requires LANEBOARD_SECRET_KEY when DATABASE_URL is set', () => {
    const error = configError({ DATABASE_URL: 'postgres://db/lb' });
    expect(error.variable).toBe('LANEBOARD_SECRET_KEY');
    expect(error.message).toContain('DATABASE_URL');
  });

  it('says what the smallest accepted rate-limit window is', () => {
    expect(configError({ LANEBOARD_RATE_LIMIT_WINDOW: '500ms' }).message).toContain('1s');
  });

  it('never repeats a secret or a connection URL (which may hold a password) in the message', () => {
    expect(configError({ LANEBOARD_SECRET_KEY: 'hunter2-secret' }).message).not.toContain('hunter2');
    expect(configError({ LANEBOARD_METRICS_TOKEN: 'hunter2-short' }).message).not.toContain('hunter2');
    expect(configError({ DATABASE_URL: 'mysql://u:hunter2@db/x' }).message).not.toContain('hunter2');
    expect(configError({ REDIS_URL: 'http://:hunter2@cache' }).message).not.toContain('hunter2');
  });
});

describe('parseDuration', () => {
  it.each([
    ['0ms', 0],
    ['250ms', 250],
    ['10s', 10_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    [' 1m ', 60_000],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '10', 's', '1.5s', '-1s', '10 s', '1w', '10S', '1m30s', '99999999999999999999h'])(
    '%j is not a duration',
    (text) => {
      expect(parseDuration(text)).toBeNull();
    },
  );

  it('formats milliseconds back in the largest exact unit', () => {
    expect([7_200_000, 1_800_000, 300_000, 10_000, 1500, 250, 0].map(formatDuration)).toEqual([
      '2h',
      '30m',
      '5m',
      '10s',
      '1500ms',
      '250ms',
      '0ms',
    ]);
    for (const text of ['2h', '30m', '10s', '250ms']) {
      expect(formatDuration(parseDuration(text) as number)).toBe(text);
    }
  });
});

describe('LANEBOARD_TRUST_PROXY', () => {
  it('defaults to trusting no proxy', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('accepts true, false, a hop count and a list of addresses or ranges', () => {
    expect(loadConfig({ LANEBOARD_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ LANEBOARD_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ LANEBOARD_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ LANEBOARD_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
    ]);
  });

  it('rejects anything else, naming the variable', () => {
    expect(() => loadConfig({ LANEBOARD_TRUST_PROXY: 'my-balancer' })).toThrow(/LANEBOARD_TRUST_PROXY/);
    expect(() => loadConfig({ LANEBOARD_TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
  });
});

describe('LANEBOARD_WEBHOOK_RETENTION', () => {
  it('defaults to 30 days and accepts any duration of a minute or more', () => {
    expect(loadConfig({}).webhooks.retentionMs).toBe(720 * 3_600_000);
    expect(loadConfig({ LANEBOARD_WEBHOOK_RETENTION: '48h' }).webhooks.retentionMs).toBe(48 * 3_600_000);
    expect(() => loadConfig({ LANEBOARD_WEBHOOK_RETENTION: '10s' })).toThrow(/LANEBOARD_WEBHOOK_RETENTION/);
    expect(() => loadConfig({ LANEBOARD_WEBHOOK_RETENTION: 'forever' })).toThrow(
      /LANEBOARD_WEBHOOK_RETENTION/,
    );
  });
});

describe('LANEBOARD_ACTIVITY_RETENTION', () => {
  it('defaults to 30 days and accepts any duration of a day or more (the activity stream resumes within it)', () => {
    expect(loadConfig({}).activityRetentionMs).toBe(720 * 3_600_000);
    expect(loadConfig({ LANEBOARD_ACTIVITY_RETENTION: '24h' }).activityRetentionMs).toBe(24 * 3_600_000);
    expect(loadConfig({ LANEBOARD_ACTIVITY_RETENTION: '48h' }).activityRetentionMs).toBe(48 * 3_600_000);
    expect(() => loadConfig({ LANEBOARD_ACTIVITY_RETENTION: '23h' })).toThrow(/at least/);
    expect(() => loadConfig({ LANEBOARD_ACTIVITY_RETENTION: '10s' })).toThrow(/LANEBOARD_ACTIVITY_RETENTION/);
    expect(() => loadConfig({ LANEBOARD_ACTIVITY_RETENTION: 'forever' })).toThrow(
      /LANEBOARD_ACTIVITY_RETENTION/,
    );
  });
});
