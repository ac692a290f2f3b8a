import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_OPERATOR } from '../../src/domain/actor.js';
import type { Runtime } from '../../src/runtime.js';
import type { ThreadedDispatcher } from '../../src/webhooks/dispatcher-thread.js';
import { ensureBuilt } from '../support/built-server.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

// The built server's modules: the dispatcher's thread runs dist/webhooks/dispatcher-worker.js.
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
type RuntimeModule = typeof import('../../src/runtime.js');
type ConfigModule = typeof import('../../src/config.js');

describe('the webhook dispatcher thread of a SQLite server', () => {
  const open: Runtime[] = [];
  const dataDirs: string[] = [];

  beforeAll(() => ensureBuilt(), 180_000);
  afterEach(async () => {
    for (const runtime of open.splice(0)) await runtime.close();
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startServerRuntime(
    dataDir: string,
  ): Promise<{ runtime: Runtime; thread: ThreadedDispatcher }> {
    const { createRuntime } = (await import(path.join(DIST, 'runtime.js'))) as RuntimeModule;
    const { loadConfig } = (await import(path.join(DIST, 'config.js'))) as ConfigModule;
    const runtime = await createRuntime(
      loadConfig({
        LANEBOARD_DATA_DIR: dataDir,
        LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
        LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
      }),
      { migrations: 'apply', dispatcherThread: true, log: pino({ level: 'silent' }) },
    );
    open.push(runtime);
    runtime.startBackground();
    return { runtime, thread: runtime.dispatcher as ThreadedDispatcher };
  }

  function freshDataDir(): string {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-thread-'));
    dataDirs.push(dataDir);
    return dataDir;
  }

  async function createKey(runtime: Runtime): Promise<string> {
    const created = await runtime.services.apiKeys.createKey(CLI_OPERATOR, {
      name: 'integration',
      allBoards: true,
      grants: [],
    });
    return created.id;
  }

  function createWebhook(runtime: Runtime, apiKeyId: string, url = 'http://127.0.0.1:9/hook') {
    return runtime.services.webhooks.createWebhook(CLI_OPERATOR, { url, events: ['*'], apiKeyId });
  }

  it('starts only once a webhook exists: when one is created, and with the server from then on', async () => {
    const dataDir = freshDataDir();
    const first = await startServerRuntime(dataDir);
    await first.thread.started;
    expect(first.thread.hasThread).toBe(false);

    const apiKeyId = await createKey(first.runtime);
    await expect(createWebhook(first.runtime, apiKeyId, 'not a url')).rejects.toMatchObject({
      code: 'validation_error',
    });
    expect(first.thread.hasThread).toBe(false);
    await createWebhook(first.runtime, apiKeyId);
    expect(first.thread.hasThread).toBe(true);
    await first.runtime.close();
    expect(first.thread.hasThread).toBe(false);

    const second = await startServerRuntime(dataDir);
    await second.thread.started;
    expect(second.thread.hasThread).toBe(true);
  }, 30_000);

  it('does not start with the server when every webhook is paused', async () => {
    const dataDir = freshDataDir();
    const first = await startServerRuntime(dataDir);
    const hook = await createWebhook(first.runtime, await createKey(first.runtime));
    await first.runtime.services.webhooks.updateWebhook(CLI_OPERATOR, hook.id, { active: false });
    await first.runtime.close();

    const second = await startServerRuntime(dataDir);
    await second.thread.started;
    expect(second.thread.hasThread).toBe(false);
    // Resuming queues what waited: the thread starts for it.
    await second.runtime.services.webhooks.updateWebhook(CLI_OPERATOR, hook.id, { active: true });
    expect(second.thread.hasThread).toBe(true);
  }, 30_000);

  it('answers whenIdle once the thread has sent and recorded what was queued', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const { runtime, thread } = await startServerRuntime(freshDataDir());
      const hook = await createWebhook(runtime, await createKey(runtime), receiver.url('/idle'));
      for (let i = 0; i < 5; i++) await runtime.services.webhooks.pingWebhook(CLI_OPERATOR, hook.id);
      await thread.whenIdle();
      // Every ping sent, and recorded: nothing was left in flight or unwritten when it answered.
      expect(receiver.deliveries('/idle').size).toBe(5);
      const statuses = await runtime.database.kysely
        .selectFrom('webhook_deliveries')
        .select('status')
        .where('webhook_id', '=', hook.id)
        .execute();
      expect(statuses.map((row) => row.status)).toEqual(Array(5).fill('delivered'));
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
