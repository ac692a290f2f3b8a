import fs from 'node:fs';
import path from 'node:path';
import {
  BackupError,
  type BackupSettings,
  KEY_FILE,
  MANIFEST_FILE,
  newManifest,
  PG_DUMP_FILE,
  SQLITE_FILE,
  sha256OfFile,
} from './manifest.js';
import { findOnPath, pgDumpArgs, runPgTool, shellWord } from './pg-tools.js';

const MIN_KEY_LENGTH = 32;

/** What `laneboard backup` did, for its report. */
export interface BackupResult {
  dir: string;
  schemaVersion: string;
  files: string[];
  /** Set when pg_dump was not on PATH: the command that completes the backup. */
  commandToRun: string | null;
}

/**
 * The master key the stored secrets are sealed with: the configured one, or the data directory's key
 * file (read, never created: a backup of a directory without one would hold a key nothing was sealed
 * with).
 */
function masterKeyOf(config: BackupSettings): string {
  if (config.secretKey !== null) return config.secretKey;
  const file = path.join(config.dataDir, KEY_FILE);
  let key: string;
  try {
    key = fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new BackupError(
      `${file} cannot be read: there is no master key to back up (check LANEBOARD_DATA_DIR)`,
    );
  }
  if (key.length < MIN_KEY_LENGTH) throw new BackupError(`${file} holds no valid master key`);
  return key;
}

/** Creates `dir`, or takes it if it exists and is empty; returns whether it was created. */
function prepareDir(dir: string): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new BackupError(`${dir} is not a directory`);
    if (code !== 'ENOENT') throw new BackupError(`${dir} cannot be read (${code ?? 'error'})`);
    // The backup holds the master key: only its owner may read it.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  }
  if (entries.length > 0) {
    throw new BackupError(`${dir} is not empty: back up into a new or an empty directory`);
  }
  return false;
}

/**
 * `laneboard backup DIR`: a consistent copy of the database (SQLite's online backup, or pg_dump's
 * snapshot), the master key (mode 0600) and a manifest with the schema version and each file's
 * SHA-256, taken while a server may be serving and writing. The manifest is written last: a directory
 * without one is not a backup. On failure, what was written is removed.
 */
export async function takeBackup(
  config: BackupSettings,
  dirArgument: string,
  now = new Date(),
): Promise<BackupResult> {
  const dir = path.resolve(dirArgument);
  const masterKey = masterKeyOf(config);
  const created = prepareDir(dir);
  const written: string[] = [];
  try {
    const write = (name: string, content: string, mode: number) => {
      fs.writeFileSync(path.join(dir, name), content, { mode, flag: 'wx' });
      written.push(name);
      // Whatever the umask, the key file is the owner's only.
      fs.chmodSync(path.join(dir, name), mode);
    };
    const database =
      config.databaseUrl === null
        ? await copySqlite(config, dir, written)
        : await dumpPostgres(config.databaseUrl, dir, written);
    write(KEY_FILE, `${masterKey}\n`, 0o600);
    const files: Record<string, string> = {};
    for (const name of written) files[name] = sha256OfFile(path.join(dir, name));
    const manifest = newManifest({
      createdAt: now,
      schemaVersion: database.schemaVersion,
      database: database.dialect,
      files,
      pendingFiles: database.commandToRun === null ? [] : [PG_DUMP_FILE],
    });
    write(MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`, 0o600);
    return {
      dir,
      schemaVersion: database.schemaVersion,
      files: written,
      commandToRun: database.commandToRun,
    };
  } catch (error) {
    // The directory was empty (or new): whatever is in it now is this backup's, SQLite's journal too.
    if (created) fs.rmSync(dir, { recursive: true, force: true });
    else
      for (const name of fs.readdirSync(dir))
        fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    throw error;
  }
}

interface CopiedDatabase {
  schemaVersion: string;
  dialect: { dialect: 'sqlite' } | { dialect: 'postgres'; schema: string };
  commandToRun: string | null;
}

async function copySqlite(config: BackupSettings, dir: string, written: string[]): Promise<CopiedDatabase> {
  const source = path.join(config.dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) {
    throw new BackupError(`${source} does not exist: nothing to back up (check LANEBOARD_DATA_DIR)`);
  }
  const { copySqliteDatabase } = await import('./sqlite-copy.js');
  written.push(SQLITE_FILE);
  const schemaVersion = await copySqliteDatabase(source, path.join(dir, SQLITE_FILE));
  return { schemaVersion, dialect: { dialect: 'sqlite' }, commandToRun: null };
}

async function dumpPostgres(databaseUrl: string, dir: string, written: string[]): Promise<CopiedDatabase> {
  const { readPostgresSchema } = await import('./pg-schema.js');
  const { schema, schemaVersion } = await readPostgresSchema(databaseUrl);
  const file = path.join(dir, PG_DUMP_FILE);
  const pgDump = findOnPath('pg_dump');
  if (pgDump === null) {
    const command = ['pg_dump', ...pgDumpArgs(schema, file)].map(shellWord).join(' ');
    return {
      schemaVersion,
      dialect: { dialect: 'postgres', schema },
      commandToRun: `${command} --dbname="$DATABASE_URL"`,
    };
  }
  written.push(PG_DUMP_FILE);
  await runPgTool(pgDump, pgDumpArgs(schema, file), databaseUrl);
  return { schemaVersion, dialect: { dialect: 'postgres', schema }, commandToRun: null };
}
