import type BetterSqlite3 from 'better-sqlite3';

/**
 * Reads a statement's rows as arrays and turns each into an object with one literal of the statement's
 * columns. better-sqlite3 builds row objects property by property through V8's API (each column name
 * internalised, then one hidden-class transition per property): for a list of 100 tasks that was about
 * half the query's cost, and more than the whole list took in a hand-written handler's JSON.
 */
export interface SqliteRowReader {
  all(values: readonly unknown[]): Record<string, unknown>[];
  get(values: readonly unknown[]): Record<string, unknown> | undefined;
}

type RowBuilder = (row: unknown[]) => Record<string, unknown>;

// Per connection and SQL text. The texts are the code's own constant queries (a few dozen), so the map
// needs no bound. Statements are the reader's own: raw mode is a property of a statement, and the
// connection's shared cache (sqlite-statement-cache.ts) hands its statements to Kysely.
const readers = new WeakMap<BetterSqlite3.Database, Map<string, SqliteRowReader | null>>();

/** A reader for `text` on this connection, or undefined when the statement returns no rows. */
export function sqliteRowReader(sqlite: BetterSqlite3.Database, text: string): SqliteRowReader | undefined {
  let byText = readers.get(sqlite);
  if (!byText) {
    byText = new Map();
    readers.set(sqlite, byText);
  }
  let reader = byText.get(text);
  if (reader === undefined) {
    const statement = sqlite.prepare(text);
    reader = statement.reader ? rowReader(statement.raw(true)) : null;
    byText.set(text, reader);
  }
  return reader ?? undefined;
}

function rowReader(statement: BetterSqlite3.Statement): SqliteRowReader {
  let columns = statement.columns().length;
  let build = rowBuilder(statement);
  // Another process's migration may add a column under a `select *`; the statement is prepared again by
  // SQLite, and the builder must follow, or values would land under the wrong names.
  const builderFor = (row: unknown[]): RowBuilder => {
    if (row.length !== columns) {
      columns = row.length;
      build = rowBuilder(statement);
    }
    return build;
  };
  return {
    all: (values) => {
      const rows = statement.all(values) as unknown[][];
      const out = new Array<Record<string, unknown>>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = builderFor(rows[i] as unknown[])(rows[i] as unknown[]);
      return out;
    },
    get: (values) => {
      const row = statement.get(values) as unknown[] | undefined;
      return row === undefined ? undefined : builderFor(row)(row);
    },
  };
}

/** One object literal for the columns (a later column of the same name wins, as in better-sqlite3). */
function rowBuilder(statement: BetterSqlite3.Statement): RowBuilder {
  const fields = statement
    .columns()
    .map((column, i) => `${JSON.stringify(column.name)}: r[${i}]`)
    .join(', ');
  // A generated literal gives every row the same hidden class from the start; the names are the
  // statement's own column names, quoted as JSON strings.
  return new Function('r', `return { ${fields} };`) as RowBuilder;
}
