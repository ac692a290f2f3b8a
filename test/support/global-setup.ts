import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/** Whether `pid` is a live process: a zombie (killed, not yet reaped by its new parent) is not. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Linux: the state is the field after the parenthesised command name.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Gives the run a directory where spawned children register (see child-processes.ts); at the end, any
 * child still registered outlived its test and its worker: it is killed and the run is told so.
 */
export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-test-children-'));
  project.provide('childRegistry', dir);
  return () => {
    const leftovers: string[] = [];
    for (const name of fs.readdirSync(dir)) {
      const pid = Number(name);
      const what = fs.readFileSync(path.join(dir, name), 'utf8');
      if (!running(pid)) continue; // gone (its exit was not seen by a worker that was itself ending)
      leftovers.push(`${pid}: ${what}`);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited in between
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
    if (leftovers.length > 0) {
      // Vitest reports an error thrown here but still exits 0: the run must fail.
      process.exitCode = 1;
      throw new Error(`processes left running by the tests (now killed):\n${leftovers.join('\n')}`);
    }
  };
}
