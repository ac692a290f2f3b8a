import fs from 'node:fs';
import path from 'node:path';

/**
 * A server on the embedded database writes its process id here at start and removes it at exit, so
 * `laneboard restore` can tell that a running server holds the data directory. A file left by a server
 * that was killed names a process that no longer runs: it holds nothing.
 */
export const DATA_DIR_LOCK_FILE = 'laneboard.pid';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function recordedPid(file: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Marks `dataDir` as held by this process; the returned function releases it (only if the file still
 * names this process: a second server started on the same directory took it over).
 */
export function holdDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${process.pid}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      if (recordedPid(file) === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // Exiting anyway: a file left behind names a process that has ended, which holds nothing.
    }
  };
}

/** The running process that holds `dataDir`, or null when none does (no file, or a stale one). */
export function dataDirHolder(dataDir: string): number | null {
  const pid = recordedPid(path.join(dataDir, DATA_DIR_LOCK_FILE));
  return pid !== null && pid !== process.pid && isRunning(pid) ? pid : null;
}
