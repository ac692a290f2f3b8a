import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentBranch, locateTask, shortIdsInBranch } from '../../src/capture/task-locator.js';
import { scratchDir } from './capture-support.js';

describe('finding the task for a capture run', () => {
  let root: string;
  let cwd: string;
  beforeEach(() => {
    root = scratchDir();
    cwd = path.join(root, 'repo', 'packages', 'web');
    fs.mkdirSync(cwd, { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function gitBranch(branch: string): void {
    fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, 'repo', '.git', 'HEAD'), `ref: refs/heads/${branch}\n`);
  }
  function taskFile(dir: string, text: string): void {
    fs.mkdirSync(path.join(dir, '.laneboard'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.laneboard', 'task'), text);
  }

  it('takes --task, then LANEBOARD_TASK, then .laneboard/task, then the git branch', () => {
    gitBranch('feature/k3x9q2ab-login');
    taskFile(path.join(root, 'repo'), '\n  FILE0001  \nnotes about the task\n');
    expect(locateTask({ option: ' OPT00001 ', env: 'env00001', cwd })).toEqual({
      origin: 'option',
      shortIds: ['opt00001'],
    });
    expect(locateTask({ option: '', env: 'env00001', cwd })).toEqual({
      origin: 'env',
      shortIds: ['env00001'],
    });
    expect(locateTask({ env: '  ', cwd })).toEqual({ origin: 'file', shortIds: ['file0001'] });
    fs.rmSync(path.join(root, 'repo', '.laneboard'), { recursive: true });
    expect(locateTask({ cwd })).toEqual({ origin: 'branch', shortIds: ['k3x9q2ab'] });
  });

  it('uses the nearest .laneboard/task above cwd', () => {
    taskFile(root, 'outer001');
    taskFile(path.join(root, 'repo', 'packages'), 'inner001');
    expect(locateTask({ cwd })?.shortIds).toEqual(['inner001']);
  });

  it('finds nothing without any of them, or on a detached HEAD', () => {
    expect(locateTask({ cwd })).toBeNull();
    expect(locateTask({ cwd: null })).toBeNull();
    fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, 'repo', '.git', 'HEAD'), '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b\n');
    expect(currentBranch(cwd)).toBeNull();
    expect(locateTask({ cwd })).toBeNull();
  });

  it('reads the branch of a git worktree, whose .git is a file naming the git directory', () => {
    const gitDir = path.join(root, 'main', '.git', 'worktrees', 'repo');
    fs.mkdirSync(gitDir, { recursive: true });
    fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/lb/ab12cd34\n');
    fs.writeFileSync(path.join(root, 'repo', '.git'), `gitdir: ${gitDir}\n`);
    expect(currentBranch(cwd)).toBe('lb/ab12cd34');
    expect(locateTask({ cwd })).toEqual({ origin: 'branch', shortIds: ['ab12cd34'] });
  });

  it('lists every shortId-like word of a branch name, in order, once', () => {
    expect(shortIdsInBranch('feature/settings-K3X9Q2AB_fix-k3x9q2ab')).toEqual(['settings', 'k3x9q2ab']);
    expect(shortIdsInBranch('main')).toEqual([]);
    expect(shortIdsInBranch('fix/abc1234-too-short-and-abcdefghi-too-long')).toEqual([]);
  });
});
