import type BetterSqlite3 from 'better-sqlite3';

/*
 * Rows read as arrays and turned into objects by one literal of the statement's columns. better-sqlite3
 * builds row objects property by property through V8's API (each column name internalised, then one
 * hidden-class transition per property): for a list of 100 tasks that was about half of the request's
 * CPU. Raw mode is switched on only for the call, so a statement shared through the connection's cache
 * (sqlite-statement-cache.ts) still answers objects to everyone else.
 */

type RowBuilder = (row: unknown[]) => Record<string, unknown>;

interface Shape {
  width: number;
  build: RowBuilder;
}

const shapes = new WeakMap<BetterSqlite3.Statement, Shape>();

/** Every row of a reader statement, as better-sqlite3's objects would be. */
export function readRows(
  statement: BetterSqlite3.Statement,
  values: readonly unknown[],
): Record<string, unknown>[] {
  const rows = asArrays(statement, () => statement.all(values) as unknown[][]);
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as unknown[];
    out[i] = builderFor(statement, row)(row);
  }
  return out;
}

/** The first row of a reader statement, or undefined. */
export function readRow(
  statement: BetterSqlite3.Statement,
  values: readonly unknown[],
): Record<string, unknown> | undefined {
  const row = asArrays(statement, () => statement.get(values) as unknown[] | undefined);
  return row === undefined ? undefined : builderFor(statement, row)(row);
}

function asArrays<T>(statement: BetterSqlite3.Statement, read: () => T): T {
  statement.raw(true);
  try {
    return read();
  } finally {
    statement.raw(false);
  }
}

function builderFor(statement: BetterSqlite3.Statement, row: unknown[]): RowBuilder {
  let shape = shapes.get(statement);
  // Another process's migration may add a column under a `select *`: SQLite prepares the statement
  // again, and the names must follow, or values would land under the wrong ones.
  if (shape === undefined || shape.width !== row.length) {
    shape = { width: row.length, build: rowBuilder(statement) };
    shapes.set(statement, shape);
  }
  return shape.build;
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
