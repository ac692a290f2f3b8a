import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { exitOf, trackChild } from './child-processes.js';

/**
 * Another process holds the write lock of the SQLite file (with a row inserted into its `notes` table)
 * for `holdMs`, as the dispatcher thread, the checkpointer or a CLI command may. Resolves once the lock
 * is held; `exited` once it has committed.
 */
export async function holdWriteLock(file: string, holdMs: number): Promise<{ exited: Promise<void> }> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(file)});
       db.exec("begin immediate; insert into notes (body) values ('held')");
       require('node:fs').writeSync(1, 'locked\\n');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
       db.exec('commit');`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  trackChild(child);
  const exited = exitOf(child);
  const locked = new Promise<'locked'>((resolve) => child.stdout.once('data', () => resolve('locked')));
  if ((await Promise.race([locked, exited.then(() => 'exited' as const)])) === 'exited') {
    throw new Error(`the process meant to hold the write lock exited first (${child.exitCode})`);
  }
  return { exited };
}
