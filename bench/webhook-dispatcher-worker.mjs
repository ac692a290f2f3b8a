// One more instance's dispatcher for bench/webhook-delivery.mjs with BENCH_INSTANCES > 1 (PostgreSQL):
// in its own process, as another server instance runs it, sharing the outbox with FOR UPDATE SKIP LOCKED
// and woken by NOTIFY. Controlled over IPC: 'start', then 'stop' (it stops, closes, and exits).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (file) => import(path.join(root, 'dist', file));
const { openDatabase } = await dist('db/database.js');
const { SecretBox } = await dist('lib/secret-box.js');
const { systemClock } = await dist('lib/time.js');
const { WebhookDispatcher } = await dist('webhooks/webhook-dispatcher.js');

const [databaseUrl, masterKey] = process.argv.slice(2);
const database = openDatabase({ databaseUrl, dataDir: os.tmpdir(), poolSize: 10 });
const dispatcher = new WebhookDispatcher({
  database,
  secrets: new SecretBox(masterKey),
  clock: systemClock,
  timeoutMs: 10_000,
  retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
  allowPrivate: true,
  ...(process.env.BENCH_PER_HOST ? { perHostConcurrency: Number(process.env.BENCH_PER_HOST) } : {}),
});

process.on('message', async (message) => {
  if (message === 'start') {
    dispatcher.start();
    process.send('started');
  } else if (message === 'stop') {
    await dispatcher.stop();
    await database.close();
    process.send('stopped', () => process.exit(0));
  }
});
process.send('ready');
