import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WAIT_FOR_OTHER_BUILD_MS = 15 * 60_000;
const POLL_MS = 250;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `work` while holding a lock shared by every test worker of this checkout (a directory made
 * atomically, holding the owner's pid), so two workers never build at once: the second waits, then
 * finds the build fresh. A lock whose owner died is taken over.
 */
export function withBuildLock<T>(root: string, name: string, work: () => T): T {
  const id = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const lock = path.join(os.tmpdir(), `laneboard-${name}-${id}.lock`);
  const deadline = Date.now() + WAIT_FOR_OTHER_BUILD_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner = Number.NaN;
    try {
      owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // the owner has made the directory and not yet written its pid, or has just released it
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another test worker held ${lock} for too long`);
    pause(POLL_MS);
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The newest modification time of any file under `dir`. */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}
