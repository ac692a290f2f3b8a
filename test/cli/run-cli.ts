import { spawn } from 'node:child_process';
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

/** Runs a command to completion (at most `timeoutMs`) and collects its output. */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 15_000,
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
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `laneboard <args>` as `npx laneboard` runs it: node on bin/laneboard.js (which runs dist/). */
export function laneboard(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCommand(process.execPath, [path.join(PROJECT_ROOT, 'bin/laneboard.js'), ...args], env);
}
