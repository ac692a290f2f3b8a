import { expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { NotificationRetention } from '../../src/domain/notifications/notification-retention.js';
import { describeEachDialect } from '../support/dialects.js';
import { useUiTestApp } from '../ui/ui-support.js';
import { notificationScene } from './notification-fixtures.js';

const DAY = 86_400_000;

describeEachDialect('notification retention', (dialect) => {
  // The clock jumps months: sessions must outlive the jumps.
  const t = useUiTestApp(dialect, { sessionTtlMs: 1000 * DAY });

  it('deletes read notifications after 90 days and unread ones after 180, batch by batch; counts stay right', async () => {
    const { ada, bob, ext, todo, done, base } = await notificationScene(t, {
      names: ['Ada Retention', 'Bob Retention'],
      boardName: 'Retention',
      taskTitle: 'Old news',
    });

    // Day 0: Ada is assigned, the task moves twice; Bob is mentioned. Ada reads the assignment.
    await ext('PUT', `${base}/assignees/${ada.id}`);
    await ext('POST', `${base}/move`, { laneId: done.id });
    await ext('POST', `${base}/move`, { laneId: todo.id });
    await ext('POST', `${base}/comments`, { body: '@Bob Retention see', authorName: 'CI' });
    const inbox = async (who: typeof ada) => {
      const res = await who.browser.request('GET', '/api/ui/notifications');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: Array<{ id: string; kind: string; read: boolean }>; unread: number };
      const count = (await who.browser.request('GET', '/api/ui/notifications/unread-count')).json().data
        .unread as number;
      // The badge's count and the list's count agree with the rows that are left.
      expect(count).toBe(body.unread);
      expect(body.data.filter((n) => !n.read)).toHaveLength(count);
      return { kinds: body.data.map((n) => `${n.kind}${n.read ? ' (read)' : ''}`), unread: count };
    };
    const assigned = (await t.services.notifications.list(asUser(ada.id))).data.at(-1);
    expect(assigned?.kind).toBe('assigned');
    await ada.browser.request('POST', `/api/ui/notifications/${assigned?.id}/read`);
    expect(await inbox(ada)).toEqual({
      kinds: ['commented', 'moved', 'moved', 'assigned (read)'],
      unread: 3,
    });

    const changed: string[][] = [];
    const retention = new NotificationRetention({
      database: t.db.database,
      clock: t.clock,
      log: { warn: () => {} },
      readRetentionMs: 90 * DAY,
      unreadRetentionMs: 180 * DAY,
      onInboxChanged: (people) => changed.push([...people].sort()),
      // One row a statement: several batches in one run.
      batch: 1,
    });

    // Day 100: a new comment; the read assignment is past 90 days, the unread ones are kept.
    t.clock.advance(100 * DAY);
    await ext('POST', `${base}/comments`, { body: 'still on it', authorName: 'CI' });
    expect(await retention.pruneOnce()).toEqual({ read: 1, unread: 0 });
    expect(changed).toEqual([]);
    expect(await inbox(ada)).toEqual({ kinds: ['commented', 'commented', 'moved', 'moved'], unread: 4 });
    expect(await inbox(bob)).toEqual({ kinds: ['mentioned'], unread: 1 });

    // Day 181: everything unread from day 0 goes (Ada's three, Bob's one); day 100's comment stays.
    t.clock.advance(81 * DAY);
    expect(await retention.pruneOnce()).toEqual({ read: 0, unread: 4 });
    expect(changed).toEqual([[ada.id, bob.id].sort()]);
    expect(await inbox(ada)).toEqual({ kinds: ['commented'], unread: 1 });
    expect(await inbox(bob)).toEqual({ kinds: [], unread: 0 });

    // Nothing more to do; new notifications still arrive and count.
    expect(await retention.pruneOnce()).toEqual({ read: 0, unread: 0 });
    await ext('POST', `${base}/move`, { laneId: done.id });
    expect(await inbox(ada)).toEqual({ kinds: ['moved', 'commented'], unread: 2 });
  });

  it('logs a database failure and reports what it deleted before it', async () => {
    const warnings: string[] = [];
    const failing = {
      kysely: {
        deleteFrom() {
          throw new Error('database is gone');
        },
      },
    } as unknown as Database;
    const retention = new NotificationRetention({
      database: failing,
      clock: t.clock,
      log: { warn: (_detail, message) => warnings.push(message) },
      readRetentionMs: DAY,
      unreadRetentionMs: DAY,
    });
    expect(await retention.pruneOnce()).toEqual({ read: 0, unread: 0 });
    expect(warnings).toEqual(['notifications could not be pruned']);
  });
});

function asUser(id: string) {
  return { kind: 'user', origin: 'ui', userId: id, name: 'x', role: 'member' } as const;
}
