import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configError } from './config-support.js';

const DAY = 86_400_000;

describe('LANEBOARD_NOTIFICATION_RETENTION and LANEBOARD_NOTIFICATION_UNREAD_RETENTION', () => {
  it('default to 90 days for read notifications and 180 days for unread ones', () => {
    expect(loadConfig({}).notificationRetention).toEqual({ readMs: 90 * DAY, unreadMs: 180 * DAY });
  });

  it('accept durations of a day or more; unread defaults to the read retention when that is longer', () => {
    expect(loadConfig({ LANEBOARD_NOTIFICATION_RETENTION: '24h' }).notificationRetention).toEqual({
      readMs: DAY,
      unreadMs: 180 * DAY,
    });
    expect(loadConfig({ LANEBOARD_NOTIFICATION_RETENTION: '365d' }).notificationRetention).toEqual({
      readMs: 365 * DAY,
      unreadMs: 365 * DAY,
    });
    expect(
      loadConfig({ LANEBOARD_NOTIFICATION_RETENTION: '7d', LANEBOARD_NOTIFICATION_UNREAD_RETENTION: '30d' })
        .notificationRetention,
    ).toEqual({ readMs: 7 * DAY, unreadMs: 30 * DAY });
  });

  it.each([
    ['LANEBOARD_NOTIFICATION_RETENTION', '-5d', /must be a duration/],
    ['LANEBOARD_NOTIFICATION_RETENTION', 'ninety', /must be a duration/],
    ['LANEBOARD_NOTIFICATION_RETENTION', '90', /must be a duration/],
    ['LANEBOARD_NOTIFICATION_RETENTION', '12h', /at least 1d/],
    ['LANEBOARD_NOTIFICATION_UNREAD_RETENTION', '-1d', /must be a duration/],
    ['LANEBOARD_NOTIFICATION_UNREAD_RETENTION', 'never', /must be a duration/],
    ['LANEBOARD_NOTIFICATION_UNREAD_RETENTION', '0d', /at least 1d/],
    ['LANEBOARD_NOTIFICATION_UNREAD_RETENTION', '30d', /at least LANEBOARD_NOTIFICATION_RETENTION \(90d\)/],
  ])('%s=%s stops the start with an error naming it', (name, value, message) => {
    const error = configError({ [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message).toMatch(new RegExp(`^${name}: `));
    expect(error.message).toMatch(message);
  });
});
