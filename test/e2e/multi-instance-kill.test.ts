import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttemptRecorder, overlappingAttempts } from './support/attempt-recorder.js';
import { type Instance, waitUntil } from './support/instances.js';
import type { EmptySchema } from './support/postgres-schema.js';
import {
  LEASE_MS,
  NO_POSTGRES,
  startTwoInstances,
  stopTwoInstances,
  type TwoInstances,
} from './support/two-instances.js';

describe.skipIf(NO_POSTGRES)('two instances on one PostgreSQL database, one killed mid-delivery', () => {
  let pair: Partial<TwoInstances> = {};
  let schema: EmptySchema;
  let receiver: AttemptRecorder;
  let a: Instance;
  let b: Instance;
  let key: string;

  beforeAll(async () => {
    // B, the survivor, waits for answers far longer than the receiver holds them: on a busy machine its
    // own time-out would otherwise cut off its held attempts too, and they would pass for A's.
    pair = await startTwoInstances({ LANEBOARD_WEBHOOK_TIMEOUT: '60s' });
    ({ schema, receiver, a, b, key } = pair as TwoInstances);
  }, 180_000);
  afterAll(() => stopTwoInstances(pair));

  it('delivers every event when an instance is killed mid-delivery, never attempting a delivery twice at once', async () => {
    const hook = await a.api(key, 'POST', '/webhooks', { url: receiver.url, events: ['*'] });
    expect(hook.status).toBe(201);
    receiver.delayMs = 600;

    // Events through both instances: two boards, then 40 lanes created concurrently.
    const boards = [
      (await a.api(key, 'POST', '/boards', { name: 'Hooks A' })).body.data.id as string,
      (await b.api(key, 'POST', '/boards', { name: 'Hooks B' })).body.data.id as string,
    ];
    const lanes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        [a, b][i % 2]!.api(key, 'POST', `/boards/${boards[i % 2]}/lanes`, { name: `Lane ${i}` }),
      ),
    );
    expect(lanes.map((l) => l.status)).toEqual(Array(40).fill(201));
    const eventCount = 42;

    // Both dispatchers have attempts in flight, which the receiver then holds open (answers none) while A
    // is frozen, its leases read, and killed: a slow receiver alone answered A's last attempts during the
    // freeze when the machine was busy, and nothing was left to cut off.
    const leaseOwnerInstance = (owner: string) => owner.split(':')[0]!;
    await waitUntil('both instances to have attempts in flight', async () => {
      receiver.hold();
      const rows = await schema.query<{ id: string; lease_owner: string }>(
        'select id, lease_owner from webhook_deliveries where lease_owner is not null',
      );
      const open = new Set(receiver.open.map((x) => x.deliveryId));
      const sending = new Set(
        rows.filter((r) => open.has(r.id)).map((r) => leaseOwnerInstance(r.lease_owner)),
      );
      if (sending.size >= 2) return true;
      receiver.release();
      return undefined;
    });
    await a.signal('SIGSTOP');
    const leasesAtKill = await schema.query<{ id: string; lease_owner: string; lease_until: number }>(
      'select id, lease_owner, lease_until from webhook_deliveries where lease_owner is not null',
    );
    await a.signal('SIGKILL');
    receiver.delayMs = 0;
    receiver.release();

    const outcome = await waitUntil(
      'every delivery to be delivered',
      async () => {
        const rows = await schema.query<{ status: string; n: number }>(
          'select status, count(*)::int as n from webhook_deliveries group by status',
        );
        const counts: Record<string, number> = Object.fromEntries(rows.map((r) => [r.status, r.n]));
        // A failed delivery ends the wait at once: the assertion below then shows it.
        return counts.pending && !counts.failed ? undefined : counts;
      },
      LEASE_MS + 60_000,
    );
    expect(outcome).toEqual({ delivered: eventCount });

    const attempts = receiver.attempts;
    // Every event arrived at least once.
    const events = await schema.query<{ id: string }>('select id from webhook_events');
    expect(events).toHaveLength(eventCount);
    const arrived = new Set(attempts.filter((x) => x.answered).map((x) => x.eventId));
    expect([...arrived].sort()).toEqual(events.map((e) => e.id).sort());

    // No delivery was ever in the hands of two senders at once.
    expect(overlappingAttempts(attempts)).toEqual([]);

    // The attempts A had in flight were cut off by the kill; they identify A's leases.
    const cutOff = attempts.filter((x) => !x.answered);
    expect(cutOff.length).toBeGreaterThan(0);
    const leaseById = new Map(leasesAtKill.map((l) => [l.id, l]));
    const killed = new Set(
      cutOff.map((x) => leaseOwnerInstance(leaseById.get(x.deliveryId)?.lease_owner ?? '?')),
    );
    expect(killed.size).toBe(1);
    const [killedInstance] = [...killed];
    const orphans = leasesAtKill.filter((l) => leaseOwnerInstance(l.lease_owner) === killedInstance);
    // The survivor took each of them over only once its lease had run out, and delivered it.
    for (const orphan of orphans) {
      const retried = attempts.filter((x) => x.deliveryId === orphan.id && x.startedAt >= orphan.lease_until);
      expect(
        retried.some((x) => x.answered),
        `delivery ${orphan.id} retried after its lease`,
      ).toBe(true);
    }
    expect(b.running).toBe(true);
  }, 180_000);
});
