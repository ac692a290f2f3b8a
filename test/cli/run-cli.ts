import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a child process: this one's, without any Laneboard or database setting a
 * developer may have exported, plus `env`.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(LANEBOARD_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$|LOG_LEVEL$)/.test(name)) continue;
    clean[name] = value;
  }
  return { ...clean, ...env };
}

/**
 * Runs a command to completion and collects its output. `stdin` is written and closed, as a script
 * piping into the command would. A command that has not finished after `timeoutMs` (a safety net for a
 * hung child, not a wait) is killed and the promise rejects.
 */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  stdin = '',
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: childEnv(env), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${timeoutMs} ms; killed. ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A child that exits without reading its stdin must not fail the run.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

/** `laneboard <args>` as `npx laneboard` runs it: node on bin/laneboard.js (which runs dist/). */
export function laneboard(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  return runCommand(
    process.execPath,
    [path.join(PROJECT_ROOT, 'bin/laneboard.js'), ...args],
    env,
    60_000,
    stdin,
  );
}

/**
 * Resolves with a spawned child's exit; a child still running after `timeoutMs` (a safety net for a
 * hung child, not a wait) is killed and the promise rejects.
 */
export function exitOf(
  child: ChildProcess,
  timeoutMs = 60_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child did not exit in ${timeoutMs} ms; killed.`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}
