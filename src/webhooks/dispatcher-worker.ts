import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { LockReleases } from '../db/sqlite-lock-wait.js';
import { openSideConnection } from '../db/sqlite-side-connection.js';
import { loggableError } from '../lib/loggable-error.js';
import { SecretBox } from '../lib/secret-box.js';
import type { AttemptCounts, DispatcherThreadSettings, FromWorker, ToWorker } from './dispatcher-thread.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

// The thread of ThreadedDispatcher (dispatcher-thread.ts): a dispatcher on its own SQLite connection.
const port = parentPort;
if (!port) throw new Error('dispatcher-worker.js runs as a worker thread only');
const settings = workerData as DispatcherThreadSettings;
const send = (message: FromWorker) => port.postMessage(message);

/** Attempts' results are reported at most this often (one message per batch, not per attempt). */
const REPORT_MS = 1000;
let unreported: AttemptCounts = {};
let reportTimer: NodeJS.Timeout | null = null;
/** Sends the results gathered so far; before an `idle` answer, so a test that waited sees them all. */
const reportAttempts = () => {
  if (reportTimer) clearTimeout(reportTimer);
  reportTimer = null;
  if (Object.keys(unreported).length === 0) return;
  send({ type: 'attempts', counts: unreported });
  unreported = {};
};

const database = openSideConnection(
  settings.sqliteFile ?? path.join(settings.dataDir, 'laneboard.sqlite'),
  new LockReleases(settings.lockReleases),
);
const dispatcher = new WebhookDispatcher({
  database,
  secrets: new SecretBox(settings.masterKey),
  timeoutMs: settings.timeoutMs,
  retryDelaysMs: settings.retryDelaysMs,
  allowPrivate: settings.allowPrivate,
  ...(settings.pollIntervalMs === undefined ? {} : { pollIntervalMs: settings.pollIntervalMs }),
  ...(settings.maxConcurrency === undefined ? {} : { maxConcurrency: settings.maxConcurrency }),
  ...(settings.perHostConcurrency === undefined ? {} : { perHostConcurrency: settings.perHostConcurrency }),
  ...(settings.reportAttempts
    ? {
        onAttempts: (result, count) => {
          unreported[result] = (unreported[result] ?? 0) + count;
          reportTimer ??= setTimeout(reportAttempts, REPORT_MS);
        },
      }
    : {}),
  log: {
    warn: (detail, message) => send({ type: 'log', level: 'warn', detail, message }),
    error: (detail, message) => send({ type: 'log', level: 'error', detail, message }),
  },
});

port.on('message', (message: ToWorker) => {
  if (message.type === 'wake') {
    dispatcher.wake();
    return;
  }
  if (message.type === 'whenIdle') {
    void dispatcher.whenIdle().then(() => {
      reportAttempts();
      send({ type: 'idle', id: message.id });
    });
    return;
  }
  void dispatcher
    .stop()
    .then(() => database.close())
    .catch((error: unknown) =>
      send({
        type: 'log',
        level: 'error',
        detail: { err: loggableError(error) },
        message: 'webhook dispatcher stop failed',
      }),
    )
    .finally(() => {
      reportAttempts();
      send({ type: 'stopped' });
      port.close();
    });
});
dispatcher.start();
