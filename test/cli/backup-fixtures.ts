import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  ensureBuilt,
  freePort,
  type RunningServer,
  startServer,
  stopServer,
} from '../support/built-server.js';
import { useFixture } from '../support/dialects.js';
import { useReceiver } from '../support/webhook-receiver.js';

/**
 * The set-up of the backup suites: the built CLI; `scratch(name)`, a path in a scratch directory of the
 * suite's own (named `prefix…`, removed afterwards); a webhook receiver; and `start(databaseEnv)`, a
 * server on a data dir or database (plus `serverEnv`) whose webhooks may go to the receiver over HTTP on
 * 127.0.0.1 and are retried soon; any server still running after the suite is killed.
 */
export function useBackupSuite(prefix: string, serverEnv: Record<string, string> = {}) {
  beforeAll(() => ensureBuilt(), 600_000);
  const dir = useFixture(
    'the scratch directory',
    async () => ({ path: fs.mkdtempSync(path.join(os.tmpdir(), prefix)) }),
    async (scratch) => fs.rmSync(scratch.path, { recursive: true, force: true }),
  );
  const receiver = useReceiver();
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers.splice(0)) await stopServer(server, 'SIGKILL');
  });
  return {
    scratch: (name: string) => path.join(dir.path, name),
    receiver,
    async start(databaseEnv: Record<string, string>): Promise<RunningServer> {
      const server = await startServer({
        LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
        LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
        LANEBOARD_WEBHOOK_RETRY_DELAYS: '200ms',
        ...serverEnv,
        ...databaseEnv,
        PORT: String(await freePort()),
      });
      servers.push(server);
      return server;
    },
  };
}
