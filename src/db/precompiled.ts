import { type Compilable, CompiledQuery, type DialectAdapter, type Kysely } from 'kysely';
import { registerPrepared } from './pg-prepared.js';
import type { DB, Executor } from './schema.js';
import { directSqlite } from './sqlite-direct.js';
import { readRows } from './sqlite-rows.js';

const SENTINEL = '\u0000laneboard-parameter-';

interface Plan {
  sql: string;
  /** For each parameter of the compiled SQL: the index of a caller's argument, or a constant. */
  slots: Array<number | { constant: unknown }>;
}

/**
 * A query built and compiled once per dialect, then run with new argument values. Building and
 * compiling a Kysely query costs about as much as running a small one on SQLite, so the hottest
 * queries (every authenticated request, task detail) skip it. Arguments are located in the compiled
 * parameters by sentinel values, so the query is written like every other Kysely query.
 */
export function precompiled<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): (db: Executor, ...args: A) => Promise<R[]> {
  const plans = new WeakMap<DialectAdapter, Plan>();
  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let plan = plans.get(adapter);
    if (!plan) {
      const sentinels = Array.from({ length: arity }, (_, i) => `${SENTINEL}${i}`) as A;
      const compiled = build(db, ...sentinels).compile();
      plan = {
        sql: compiled.sql,
        slots: compiled.parameters.map((p) =>
          typeof p === 'string' && p.startsWith(SENTINEL)
            ? Number(p.slice(SENTINEL.length))
            : { constant: p },
        ),
      };
      plans.set(adapter, plan);
      registerPrepared(plan.sql);
    }
    const values = plan.slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.constant));
    // Reads on SQLite run at once when they may (see sqlite-direct.ts).
    const direct = directSqlite(db);
    if (direct) {
      const statement = direct.prepare(plan.sql);
      if (statement.reader) return readRows(statement, values) as R[];
    }
    const result = await db.executeQuery(CompiledQuery.raw(plan.sql, values) as CompiledQuery<R>);
    return result.rows;
  };
}
