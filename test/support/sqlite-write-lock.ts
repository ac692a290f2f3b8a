import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { exited };
}
