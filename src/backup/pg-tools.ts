import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BackupError } from './manifest.js';

/** The full path of `program` on PATH, or null when PATH has none. */
export function findOnPath(program: string, envPath = process.env.PATH ?? ''): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** A word for a POSIX shell, quoted when it needs to be. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The connection for libpq's tools: the URL without its password, which goes in PGPASSWORD instead, so
 * it never shows in the process list.
 */
function libpqConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  // libpq decodes only %XX (not `+`) and refuses parameters it does not know, such as node-postgres's
  // `ssl`, which it spells sslmode.
  const params = new URLSearchParams(url.search);
  if (['true', '1'].includes(params.get('ssl') ?? '') && !params.has('sslmode'))
    params.set('sslmode', 'require');
  params.delete('ssl');
  url.search = [...params]
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return {
    dbname: url.toString(),
    env: password === '' ? { ...process.env } : { ...process.env, PGPASSWORD: password },
  };
}

/** The dump's arguments, after the program and before `--dbname`. */
export function pgDumpArgs(schema: string, file: string): string[] {
  // Custom format (compressed, read by pg_restore); only our schema; no owners or grants, so it can be
  // restored by another role into another database.
  return ['--format=custom', '--no-owner', '--no-privileges', `--schema=${schema}`, `--file=${file}`];
}

export function pgRestoreArgs(file: string, listFile: string): string[] {
  // One transaction: a restore that fails part-way leaves the database as it was.
  return [
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    '--exit-on-error',
    `--use-list=${listFile}`,
    file,
  ];
}

/**
 * The entries of a dump's table of contents (`pg_restore --list`) to restore: all but the schema's own
 * creation and comment, since the schema is created beforehand (it may already exist, empty, as `public`
 * does in a new database, and CREATE SCHEMA would then fail).
 */
export function restorableEntries(list: string, schema: string): string {
  const own = new RegExp(` (SCHEMA - |COMMENT - SCHEMA )${escapeRegExp(schema)} `);
  return list
    .split('\n')
    .filter((line) => !own.test(line))
    .join('\n');
}

/** The same filter as a shell command, for the printed instructions. */
export function restorableEntriesFilter(schema: string): string {
  return `grep -v -E ${shellWord(` (SCHEMA - |COMMENT - SCHEMA )${escapeRegExp(schema)} `)}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs a PostgreSQL client tool to completion; a non-zero exit is a BackupError with its message. */
export function runPgTool(program: string, args: string[], databaseUrl: string | null): Promise<string> {
  const connection = databaseUrl === null ? null : libpqConnection(databaseUrl);
  const fullArgs = connection ? [...args, `--dbname=${connection.dbname}`] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(program, fullArgs, {
      env: connection?.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) =>
      reject(new BackupError(`${program} could not be started: ${error.message}`)),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else {
        const detail = stderr.trim().split('\n').slice(0, 5).join(' ');
        reject(new BackupError(`${path.basename(program)} failed (exit ${code}): ${detail}`));
      }
    });
  });
}
