import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import {
  ensureBuilt,
  freePort,
  type RunningServer,
  runCli,
  startServer,
  stopServer,
} from '../support/built-server.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/database.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const EVENTS = 30;

describe.each(DIALECTS)('webhook delivery survives SIGKILL ($dialect)', ({ dialect, skip }) => {
  let receiver: WebhookReceiver;
  let dataDir: string;
  let pg: TestDatabase | null = null;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    if (skip) return;
    ensureBuilt();
    receiver = await WebhookReceiver.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-restart-'));
    if (dialect === 'postgres') pg = await createTestDatabase('postgres');
  }, 180_000);
  afterAll(async () => {
    for (const server of servers) await stopServer(server, 'SIGKILL');
    await receiver?.close();
    await pg?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe.skipIf(skip)('', () => {
    it('attempts every pending and in-flight delivery after a restart on the same data', async () => {
      const env: Record<string, string> = {
        LANEBOARD_DATA_DIR: dataDir,
        LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
        LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
        // Long enough that stalled attempts are still in flight when the server is killed, even when a
        // busy machine takes seconds to create the events (at 2 s they timed out, were retried and every
        // delivery had been attempted before the kill). Leases last 2 × this + 10 s: the restarted
        // server attempts the cut-off deliveries once they run out.
        LANEBOARD_WEBHOOK_TIMEOUT: '10s',
        LANEBOARD_WEBHOOK_RETRY_DELAYS: '100ms,200ms',
        ...(pg?.databaseUrl
          ? { DATABASE_URL: pg.databaseUrl, LANEBOARD_SECRET_KEY: 'restart-test-master-key-0123456789abcdef' }
          : {}),
      };
      // Only `migrate` and `serve` migrate: the other commands need a current schema.
      runCli(['migrate'], env);
      const { key } = JSON.parse(
        runCli(['keys', 'create', '--name', 'restart', '--all-boards', '--json'], env),
      );
      const api = (base: string) => async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${base}/api/ext/v1${url}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const json = (res.status === 204 ? null : await res.json()) as { data: { id: string } } | null;
        return { status: res.status, id: json?.data.id ?? '' };
      };

      receiver.reply = { stall: true };
      const first = await startServer({ ...env, PORT: String(await freePort()) });
      servers.push(first);
      const call = api(first.baseUrl);
      const hook = await call('POST', '/webhooks', { url: receiver.url('/restart'), events: ['*'] });
      expect(hook.status).toBe(201);
      const board = await call('POST', '/boards', { name: 'Survivor' });
      const boardId = board.id;
      const laneIds: string[] = [];
      for (let i = 1; i < EVENTS; i++) {
        laneIds.push((await call('POST', `/boards/${boardId}/lanes`, { name: `Lane ${i}` })).id);
      }
      // Some attempts are in flight (the receiver holds them), the rest still queued.
      await receiver.waitFor(1);
      const beforeKill = receiver.requests.length;
      const attemptedBeforeKill = new Set(receiver.requests.map((r) => r.headers['x-service-delivery']));
      expect(attemptedBeforeKill.size).toBeLessThan(EVENTS);
      await stopServer(first, 'SIGKILL');

      receiver.reply = { status: 204 };
      const restartedAt = Date.now();
      const second = await startServer({ ...env, PORT: String(await freePort()) });
      servers.push(second);
      const answered = () => receiver.requests.filter((r) => r.receivedAt >= restartedAt);
      await receiver.waitFor(EVENTS, (r) => r.receivedAt >= restartedAt, 90_000).catch(() => answered());

      const bodies = answered().map((r) => JSON.parse(r.body));
      const eventIds = new Set(bodies.map((b) => b.id));
      expect(eventIds.size).toBe(EVENTS);
      expect(bodies.filter((b) => b.type === 'board.created')).toHaveLength(1);
      const lanesSeen = new Set(bodies.filter((b) => b.type === 'lane.created').map((b) => b.data.lane_id));
      expect(lanesSeen).toEqual(new Set(laneIds));
      // Attempts cut off by the kill are retried under the same delivery id.
      const cutOff = new Set(
        receiver.requests.slice(0, beforeKill).map((r) => r.headers['x-service-delivery']),
      );
      const retried = new Set(answered().map((r) => r.headers['x-service-delivery']));
      for (const id of cutOff) expect(retried.has(id)).toBe(true);

      await stopServer(second, 'SIGTERM');
      expect(second.child.exitCode).toBe(0);
      const database = pg
        ? pg.database
        : openDatabase({ databaseUrl: null, dataDir, sqliteFile: path.join(dataDir, 'laneboard.sqlite') });
      try {
        const rows = await database.kysely
          .selectFrom('webhook_deliveries')
          .select(['status', 'lease_owner'])
          .execute();
        expect(rows).toHaveLength(EVENTS);
        expect(rows.every((r) => r.status === 'delivered' && r.lease_owner === null)).toBe(true);
      } finally {
        if (!pg) await database.close();
      }
    }, 240_000);
  });
});
