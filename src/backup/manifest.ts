import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a backup directory holds besides its manifest. */
export const SQLITE_FILE = 'laneboard.sqlite';
export const PG_DUMP_FILE = 'laneboard.pgdump';
export const KEY_FILE = 'secret.key';
export const MANIFEST_FILE = 'manifest.json';

const FORMAT = 'laneboard-backup';
const FORMAT_VERSION = 1;

export interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  laneboardVersion: string;
  createdAt: string;
  /** The newest migration applied to the database when it was copied. */
  schemaVersion: string;
  /** PostgreSQL: the schema the dump holds (pg_restore recreates it under the same name). */
  database: { dialect: 'sqlite' } | { dialect: 'postgres'; schema: string };
  /** SHA-256 (lowercase hex) of each file, by name. */
  files: Record<string, string>;
  /**
   * Files the operator makes with the command `backup` printed (pg_dump was not on its PATH); they
   * carry no checksum.
   */
  pendingFiles: string[];
}

/** The configuration a backup and a restore work from (the server's: config.ts reads it). */
export interface BackupSettings {
  dataDir: string;
  databaseUrl: string | null;
  /** LANEBOARD_SECRET_KEY; null: the data directory's key file. */
  secretKey: string | null;
}

/** A backup or restore that cannot be done; the message says why and names what to fix. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export function laneboardVersion(): string {
  // Two levels up from src/backup and from dist/backup alike.
  const text = fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

export function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

export function newManifest(
  fields: Pick<BackupManifest, 'schemaVersion' | 'database' | 'files' | 'pendingFiles'> & { createdAt: Date },
): BackupManifest {
  return {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    laneboardVersion: laneboardVersion(),
    ...fields,
    createdAt: fields.createdAt.toISOString(),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSafeName = (name: string) => name !== '' && name === path.basename(name) && !name.startsWith('.');

/** Why `value` is not a manifest this version reads, or null when it is one. */
function manifestProblem(value: unknown): string | null {
  if (!isRecord(value) || value.format !== FORMAT) return 'it is not a Laneboard backup manifest';
  if (value.formatVersion !== FORMAT_VERSION) {
    return `its format version ${String(value.formatVersion)} is not ${FORMAT_VERSION}, the one this Laneboard reads`;
  }
  for (const field of ['laneboardVersion', 'createdAt', 'schemaVersion'] as const) {
    if (typeof value[field] !== 'string' || value[field] === '') return `"${field}" is missing`;
  }
  const database = value.database;
  if (
    !isRecord(database) ||
    !(
      database.dialect === 'sqlite' ||
      (database.dialect === 'postgres' && typeof database.schema === 'string')
    )
  ) {
    return '"database" is missing or invalid';
  }
  const files = value.files;
  if (!isRecord(files) || Object.keys(files).length === 0) return '"files" is missing';
  for (const [name, sum] of Object.entries(files)) {
    if (!isSafeName(name) || typeof sum !== 'string' || !/^[0-9a-f]{64}$/.test(sum)) {
      return `"files" has an invalid entry (${JSON.stringify(name)})`;
    }
  }
  const pending = value.pendingFiles;
  if (!Array.isArray(pending) || !pending.every((name) => typeof name === 'string' && isSafeName(name))) {
    return '"pendingFiles" is missing or invalid';
  }
  return null;
}

/** Reads DIR/manifest.json; a missing, unreadable or malformed manifest is a BackupError naming it. */
export function readManifest(dir: string): BackupManifest {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new BackupError(`${file} does not exist: ${dir} is not a (complete) Laneboard backup`);
    }
    throw new BackupError(`${file} cannot be read (${code ?? 'error'})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupError(`${file} is corrupt: it is not valid JSON`);
  }
  const problem = manifestProblem(parsed);
  if (problem) throw new BackupError(`${file} is corrupt: ${problem}`);
  return parsed as BackupManifest;
}

/** Every file the manifest lists must be there with its checksum; pending files must be there. */
export function verifyFiles(dir: string, manifest: BackupManifest): void {
  for (const [name, expected] of Object.entries(manifest.files)) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) throw new BackupError(`${file} is missing from the backup`);
    if (sha256OfFile(file) !== expected) {
      throw new BackupError(
        `checksum mismatch: ${file} is not the file the backup wrote (damaged or changed); nothing was restored`,
      );
    }
  }
  for (const name of manifest.pendingFiles) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) {
      throw new BackupError(
        `${file} is missing: make it with the pg_dump command \`laneboard backup\` printed, then restore`,
      );
    }
  }
}
