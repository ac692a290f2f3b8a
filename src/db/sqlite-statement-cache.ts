import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { readRows } from './sqlite-rows.js';

/**
 * Kysely's SQLite driver prepares every statement anew, which costs about as much as running it. This
 * wrapper keeps prepared statements by SQL text (bounded, least recently used first out). Reuse is safe
 * because Kysely runs one query at a time on the single connection.
 */
export function withStatementCache(
  database: BetterSqlite3.Database,
  capacity = 1000,
  /** Told before every `rollback` statement (Kysely's, the only way this connection rolls back). */
  onRollback: () => void = () => {},
): SqliteDatabase & { prepareCached(text: string): BetterSqlite3.Statement } {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepareCached = (text: string): BetterSqlite3.Statement => {
    if (text.startsWith('rollback')) onRollback();
    // Every transaction here writes. A deferred one that reads first cannot upgrade to a write lock
    // while another process (the CLI) writes: SQLite answers SQLITE_BUSY at once, whatever the busy
    // timeout. Starting IMMEDIATE takes the write lock up front, so the busy timeout applies.
    const sql = text === 'begin' ? 'begin immediate' : text;
    let statement = statements.get(sql);
    if (statement) {
      statements.delete(sql);
    } else {
      statement = database.prepare(sql);
      if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
    }
    statements.set(sql, statement);
    return statement;
  };
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (text: string): SqliteStatement => kyselyStatement(prepareCached(text)),
    prepareCached,
  };
}

const facades = new WeakMap<BetterSqlite3.Statement, SqliteStatement>();

/** What Kysely's driver runs: reads answer their rows through readRows (sqlite-rows.ts). */
function kyselyStatement(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return statement as unknown as SqliteStatement;
  let facade = facades.get(statement);
  if (facade === undefined) {
    facade = kyselyReader(statement);
    facades.set(statement, facade);
  }
  return facade;
}

function kyselyReader(statement: BetterSqlite3.Statement): SqliteStatement {
  return {
    reader: true,
    all: (parameters: ReadonlyArray<unknown>) => readRows(statement, parameters),
    run: (parameters: ReadonlyArray<unknown>) => statement.run(parameters),
    iterate: (parameters: ReadonlyArray<unknown>) => statement.iterate(parameters),
  } as SqliteStatement;
}
