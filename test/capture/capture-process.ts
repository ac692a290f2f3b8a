import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv, PROJECT_ROOT } from '../cli/run-cli.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `laneboard capture <args>` as an agent runs a hook: JSON on stdin, then stdin closed (null: left
 * open, as a parent that never closes the pipe would). `cwd` is where the agent runs it.
 */
export function captureCli(
  args: string[],
  stdin: string | null,
  env: Record<string, string>,
  cwd = PROJECT_ROOT,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin/laneboard.js'), 'capture', ...args], {
      cwd,
      env: childEnv(env),
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`capture did not finish in 60 s; killed. ${stderr}`));
    }, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (stdin !== null) child.stdin.end(stdin);
  });
}
