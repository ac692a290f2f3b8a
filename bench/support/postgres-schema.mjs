// A bench's throwaway PostgreSQL schema: the statements around it, and the URL whose connections use it.
// No import of the build here, so that benches running another checkout's build (BENCH_ROOT) can use it.
import pg from 'pg';

/** The master key the benches' servers and runtimes are given (LANEBOARD_SECRET_KEY). */
export const BENCH_SECRET_KEY = 'bench-master-key-0123456789abcdef0123456789';

/** One statement on its own connection. */
export async function onPostgres(connectionString, text) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `databaseUrl` with `schema` first on every connection's search_path. */
export function schemaUrl(databaseUrl, schema) {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * A throwaway schema named `schema` on `databaseUrl`, made afresh (one of that name left by an aborted
 * run is dropped first): `url` connects to it (schemaUrl), `drop()` removes it and all in it.
 */
export async function throwawaySchema(databaseUrl, schema) {
  await onPostgres(databaseUrl, `drop schema if exists ${schema} cascade; create schema ${schema}`);
  return {
    schema,
    url: schemaUrl(databaseUrl, schema),
    drop: () => onPostgres(databaseUrl, `drop schema if exists ${schema} cascade`),
  };
}
