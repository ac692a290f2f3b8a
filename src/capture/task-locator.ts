import fs from 'node:fs';
import path from 'node:path';

/** Where the task's shortId was found, in the order they are tried. */
export type TaskOrigin = 'option' | 'env' | 'file' | 'branch';

export interface TaskCandidates {
  origin: TaskOrigin;
  /** Lowercase shortIds to try in order (a branch name may hold several shortId-like words). */
  shortIds: string[];
}

export interface LocateOptions {
  option?: string | undefined;
  env?: string | undefined;
  cwd: string | null;
}

const TASK_FILE = path.join('.laneboard', 'task');
/** A shortId is 8 lowercase base36 characters (src/lib/ids.ts). */
const SHORT_ID = /^[0-9a-z]{8}$/;

function clean(value: string | undefined): string | null {
  const trimmed = value?.trim().toLowerCase();
  return trimmed ? trimmed : null;
}

/** Each directory from `start` up to the filesystem root. */
function* upwards(start: string): Generator<string> {
  let dir = path.resolve(start);
  for (;;) {
    yield dir;
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

function readTaskFile(cwd: string): string | null {
  for (const dir of upwards(cwd)) {
    const file = path.join(dir, TASK_FILE);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // The first non-empty line; the rest of the file is free for notes.
    const first = text.split(/\r?\n/).find((line) => line.trim() !== '');
    return clean(first);
  }
  return null;
}

/**
 * The current branch, read from `.git/HEAD` directly (a hook must not spawn git). In a worktree or
 * submodule `.git` is a file `gitdir: <path>` pointing at the real git directory.
 */
export function currentBranch(cwd: string): string | null {
  for (const dir of upwards(cwd)) {
    const dotGit = path.join(dir, '.git');
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      continue;
    }
    let gitDir = dotGit;
    if (stat.isFile()) {
      const match = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (!match?.[1]) return null;
      gitDir = path.resolve(dir, match[1].trim());
    }
    try {
      const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
      const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
      return ref?.[1] ?? null; // a detached HEAD names no branch
    } catch {
      return null;
    }
  }
  return null;
}

/** The words of a branch name that look like a shortId, e.g. `feature/k3x9q2ab-login` → `k3x9q2ab`. */
export function shortIdsInBranch(branch: string): string[] {
  const words = branch.toLowerCase().split(/[^0-9a-z]+/);
  return [...new Set(words.filter((word) => SHORT_ID.test(word)))];
}

/**
 * Finds the task's shortId: `--task`, then `LANEBOARD_TASK`, then a `.laneboard/task` file in `cwd` or
 * above, then shortId-like words of the git branch. The first source that names something wins.
 */
export function locateTask(options: LocateOptions): TaskCandidates | null {
  const fromOption = clean(options.option);
  if (fromOption) return { origin: 'option', shortIds: [fromOption] };
  const fromEnv = clean(options.env);
  if (fromEnv) return { origin: 'env', shortIds: [fromEnv] };
  if (!options.cwd) return null;
  const fromFile = readTaskFile(options.cwd);
  if (fromFile) return { origin: 'file', shortIds: [fromFile] };
  const branch = currentBranch(options.cwd);
  const fromBranch = branch ? shortIdsInBranch(branch) : [];
  return fromBranch.length ? { origin: 'branch', shortIds: fromBranch } : null;
}
