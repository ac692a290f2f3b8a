import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFor } from '../db/migrate.js';
import { DATA_DIR_LOCK_FILE, dataDirHolder } from '../lib/data-dir-lock.js';
import {
  BackupError,
  type BackupManifest,
  type BackupSettings,
  KEY_FILE,
  PG_DUMP_FILE,
  readManifest,
  SQLITE_FILE,
  sha256OfFile,
  verifyFiles,
} from './manifest.js';
import {
  findOnPath,
  pgRestoreArgs,
  restorableEntries,
  restorableEntriesFilter,
  runPgTool,
  shellWord,
} from './pg-tools.js';

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the backup went: the data directory, or the PostgreSQL schema. */
  target: string;
  /** Set when pg_restore was not on PATH: the command that completes the restore. */
  commandToRun: string | null;
}

/**
 * `laneboard restore DIR`: checks the backup (manifest, checksums, a schema this version knows, the
 * configured master key) and the target (no running server, missing or empty), then writes the backup
 * into the data directory or restores the dump into DATABASE_URL's schema. Every refusal happens before
 * anything is written.
 */
export async function restoreBackup(config: BackupSettings, dirArgument: string): Promise<RestoreResult> {
  const dir = path.resolve(dirArgument);
  const manifest = readManifest(dir);
  const dialect = manifest.database.dialect;
  if (dialect === 'sqlite' && config.databaseUrl !== null) {
    throw new BackupError(`${dir} holds an embedded SQLite database: unset DATABASE_URL to restore it`);
  }
  if (dialect === 'postgres' && config.databaseUrl === null) {
    throw new BackupError(
      `${dir} holds a PostgreSQL dump: set DATABASE_URL to the database to restore it into`,
    );
  }
  requireKnownSchema(manifest, dir);
  verifyFiles(dir, manifest);
  if (!(KEY_FILE in manifest.files)) throw new BackupError(`${dir} holds no master key (${KEY_FILE})`);
  const masterKey = fs.readFileSync(path.join(dir, KEY_FILE), 'utf8').trim();
  if (config.secretKey !== null && config.secretKey !== masterKey) {
    throw new BackupError(
      `LANEBOARD_SECRET_KEY is not the master key of this backup: the restored API keys and webhook secrets would not open. Set it to the content of ${path.join(dir, KEY_FILE)}`,
    );
  }
  if (manifest.database.dialect === 'sqlite') {
    restoreSqlite(config.dataDir, dir, manifest, masterKey);
    return { manifest, target: config.dataDir, commandToRun: null };
  }
  if (!(PG_DUMP_FILE in manifest.files || manifest.pendingFiles.includes(PG_DUMP_FILE))) {
    throw new BackupError(`${dir} holds no database dump (${PG_DUMP_FILE})`);
  }
  const schema = manifest.database.schema;
  const commandToRun = await restorePostgres(
    config.databaseUrl as string,
    path.join(dir, PG_DUMP_FILE),
    schema,
  );
  return { manifest, target: `schema ${schema} of the database DATABASE_URL names`, commandToRun };
}

function requireKnownSchema(manifest: BackupManifest, dir: string): void {
  const known = Object.keys(migrationsFor(manifest.database.dialect)).sort();
  if (known.includes(manifest.schemaVersion)) return;
  const newest = known[known.length - 1] ?? '';
  throw new BackupError(
    manifest.schemaVersion > newest
      ? `${dir} was taken with a newer Laneboard (${manifest.laneboardVersion}, schema ${manifest.schemaVersion}); this version knows the schema up to ${newest}: restore it with that version or later`
      : `${dir} has schema ${manifest.schemaVersion}, which this Laneboard does not know`,
  );
}

/** The data directory's entries, refusing one a running server holds or that holds anything else. */
function requireFreeDataDir(dataDir: string): 'missing' | 'empty' {
  const holder = dataDirHolder(dataDir);
  if (holder !== null) {
    throw new BackupError(`${dataDir} is held by a running Laneboard server (pid ${holder}): stop it first`);
  }
  let entries: string[];
  try {
    entries = fs.readdirSync(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR') throw new BackupError(`${dataDir} is not a directory`);
    throw new BackupError(`${dataDir} cannot be read (${code ?? 'error'})`);
  }
  // A process id file left by a server that was killed holds nothing (dataDirHolder said so).
  if (entries.some((name) => name !== DATA_DIR_LOCK_FILE)) {
    throw new BackupError(
      `${dataDir} is not empty: restore into a missing or empty data directory (LANEBOARD_DATA_DIR); nothing was changed`,
    );
  }
  return 'empty';
}

function restoreSqlite(dataDir: string, dir: string, manifest: BackupManifest, masterKey: string): void {
  if (!(SQLITE_FILE in manifest.files)) throw new BackupError(`${dir} holds no database (${SQLITE_FILE})`);
  const state = requireFreeDataDir(dataDir);
  const written: string[] = [];
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.rmSync(path.join(dataDir, DATA_DIR_LOCK_FILE), { force: true });
    // Each file under a temporary name, moved into place once complete: a restore cut short leaves no
    // half-written database for a server to open.
    const partial = path.join(dataDir, `.${SQLITE_FILE}.restoring`);
    written.push(partial);
    fs.copyFileSync(path.join(dir, SQLITE_FILE), partial, fs.constants.COPYFILE_EXCL);
    if (sha256OfFile(partial) !== manifest.files[SQLITE_FILE]) {
      throw new BackupError(`the copy of ${SQLITE_FILE} in ${dataDir} does not match its checksum`);
    }
    written.push(path.join(dataDir, SQLITE_FILE));
    fs.renameSync(partial, path.join(dataDir, SQLITE_FILE));
    const keyFile = path.join(dataDir, KEY_FILE);
    written.push(keyFile);
    fs.writeFileSync(keyFile, `${masterKey}\n`, { mode: 0o600, flag: 'wx' });
    fs.chmodSync(keyFile, 0o600);
  } catch (error) {
    for (const file of written) fs.rmSync(file, { force: true });
    if (state === 'missing') fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Restores the dump with pg_restore, in one transaction, into its schema, which must be DATABASE_URL's
 * and empty; without pg_restore on PATH, returns the command that does it instead.
 */
async function restorePostgres(
  databaseUrl: string,
  dumpFile: string,
  schema: string,
): Promise<string | null> {
  const { dropSchema, ensureSchema, restoreTarget } = await import('./pg-schema.js');
  const target = await restoreTarget(databaseUrl);
  if (target.schema !== schema) {
    throw new BackupError(
      `the backup holds schema ${schema}, but DATABASE_URL's connections use ${target.schema ?? 'no schema'}: restore into a database whose search_path names ${schema} (pg_restore cannot rename a schema)`,
    );
  }
  if (target.objects > 0) {
    throw new BackupError(
      `schema ${schema} of the database DATABASE_URL names is not empty: restore into a new database or an empty schema; nothing was changed`,
    );
  }
  const pgRestore = findOnPath('pg_restore');
  const created = await ensureSchema(databaseUrl, schema);
  if (pgRestore === null) return printedRestoreCommand(dumpFile, schema);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-restore-'));
  try {
    const listFile = path.join(scratch, 'restore.list');
    fs.writeFileSync(
      listFile,
      restorableEntries(await runPgTool(pgRestore, ['--list', dumpFile], null), schema),
    );
    await runPgTool(pgRestore, pgRestoreArgs(dumpFile, listFile), databaseUrl);
  } catch (error) {
    // The restore ran in one transaction: the schema is as empty as before; one made here goes again.
    if (created) await dropSchema(databaseUrl, schema).catch(() => {});
    throw error;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return null;
}

const LIST_MARK = '\u0000list';

function printedRestoreCommand(dumpFile: string, schema: string): string {
  const restore = ['pg_restore', ...pgRestoreArgs(dumpFile, LIST_MARK)]
    .map((word) => (word === `--use-list=${LIST_MARK}` ? '--use-list="$list"' : shellWord(word)))
    .join(' ');
  return [
    'list=$(mktemp)',
    `pg_restore --list ${shellWord(dumpFile)} | ${restorableEntriesFilter(schema)} > "$list"`,
    `${restore} --dbname="$DATABASE_URL"`,
  ].join(' && ');
}
