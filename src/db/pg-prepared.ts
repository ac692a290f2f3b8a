import { createHash } from 'node:crypto';
import type pg from 'pg';

/*
 * Named (server-side prepared) statements for the hot queries on PostgreSQL. Kysely sends every query
 * unnamed, so PostgreSQL parses and plans it on every execution: for task detail's counted position
 * that was about half of the query's time here (255 → 100–150 µs a query, client CPU 88 → 50–75 µs).
 * The precompiled queries (precompiled.ts) register their SQL; a pooled client sends a registered text
 * under its name, so each connection parses it once. Other queries are sent as before.
 */

const names = new Map<string, string>();
// Part of every name: a schema change that alters a statement's result columns makes PostgreSQL refuse
// the prepared statement (SQLSTATE 0A000, "cached plan must not change result type"); a new
// generation prepares every statement again under new names, on every connection.
let generation = 0;
const PLAN_CHANGED = '0A000';

/** Registers a hot query's SQL text (with $n parameters) to be sent as a named statement. */
export function registerPrepared(text: string): void {
  if (!names.has(text)) names.set(text, `lb_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
}

function nameOf(text: string): string | undefined {
  const name = names.get(text);
  return name === undefined ? undefined : `${name}_${generation}`;
}

const wrapped = new WeakSet<pg.ClientBase>();

type QueryResult = pg.QueryResult<Record<string, unknown>>;

/**
 * Makes `client.query(text, values)` (the form Kysely's driver uses) send registered texts as named
 * statements; everything else, and every other form, is passed on unchanged. Idempotent per client.
 */
export function preparedStatementsOn(client: pg.ClientBase): void {
  if (wrapped.has(client)) return;
  wrapped.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = (text: string, values: unknown[] | undefined, name: string): Promise<QueryResult> =>
    query({ name, text, values }) as Promise<QueryResult>;
  (client as { query: unknown }).query = (...args: unknown[]): unknown => {
    const [text, values] = args;
    const name = args.length <= 2 && typeof text === 'string' ? nameOf(text) : undefined;
    if (name === undefined) return query(...args);
    return named(text as string, values as unknown[] | undefined, name).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== PLAN_CHANGED) throw error;
      // Prepared before a schema change: once per generation, then the new name on this connection.
      if (nameOf(text as string) === name) generation++;
      return named(text as string, values as unknown[] | undefined, nameOf(text as string) as string);
    });
  };
}
