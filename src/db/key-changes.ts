import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';

/** The PostgreSQL channel the api_keys / api_key_grants (migration 007) and webhooks (011) triggers notify. */
export const KEY_CHANGES_CHANNEL = 'laneboard_api_keys';

const RECONNECT_DELAY_MS = 1000;

/**
 * Tells whether stored API keys, grants or webhooks may have changed, so the caches of key lookups and
 * of each board's matching webhooks know when to forget. `current()` returns a stamp that differs from every earlier one after any such change, on any
 * instance or process sharing the database, or null when it cannot tell (then nothing may be cached).
 */
export interface KeyChanges {
  current(): string | null;
  /**
   * Reports a change this process committed, so its own next request does not wait for the change to
   * come back as a notification (PostgreSQL delivers those asynchronously).
   */
  changed(): void;
  close(): Promise<void>;
}

/**
 * SQLite: the counter of migration 014, moved by triggers on every write to keys, grants and webhooks
 * made by any connection (another process's, the dispatcher thread's, this one's). Commits that touch
 * none of these tables (task writes, webhook deliveries) leave it alone. Read inside this connection's
 * open transaction it includes that transaction's writes, and a rollback takes them back: `rolledBack()`
 * (told by the connection before every rollback) starts a new generation, so a stamp read before the
 * rollback never comes back. Null before migration 014 (nothing may be cached then). The read costs what
 * `PRAGMA data_version` did (about 5 µs here); adding the schema's version to it cost 2 µs more, and a
 * migration that rebuilds one of these tables makes its triggers again and moves the counter itself.
 */
export function sqliteKeyChanges(sqlite: SqliteDatabase.Database): KeyChanges & { rolledBack(): void } {
  let stamp: SqliteDatabase.Statement | null = null;
  let generation = 0;
  const read = (): SqliteDatabase.Statement | null => {
    if (stamp) return stamp;
    try {
      stamp = sqlite.prepare('select n from key_change_stamp').pluck();
    } catch {
      // Before migration 014: tried again on the next call.
    }
    return stamp;
  };
  return {
    current: () => {
      const statement = read();
      if (!statement) return null;
      try {
        return `${statement.get() as number}:${generation}`;
      } catch {
        // The table is gone (a schema being replaced): nothing is cached until it is back.
        stamp = null;
        return null;
      }
    },
    changed: () => {
      // The triggers have already moved the counter; a new generation costs nothing and is safe.
      generation++;
    },
    rolledBack: () => {
      generation++;
    },
    close: async () => {},
  };
}

/**
 * PostgreSQL: triggers on api_keys, api_key_grants and webhooks NOTIFY at commit; a dedicated connection LISTENs,
 * and each notification starts a new generation. It connects on first use (CLI commands never use it).
 * While it is not listening — before the first connection, and from a lost connection until the next
 * one is listening again — it answers null, so no lookup is served from a cache that might be stale;
 * every (re)connection starts a new generation, forgetting what was cached before.
 */
export function pgKeyChanges(pool: pg.Pool, Client: typeof pg.Client): KeyChanges {
  let generation = 0;
  let client: pg.Client | null = null;
  let listening = false;
  let connecting = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const lose = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    listening = false;
    generation++;
    lost.removeAllListeners('notification');
    void lost.end().catch(() => {});
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };

  const connect = async () => {
    if (closed || connecting || client) return;
    connecting = true;
    const next = new Client(pool.options);
    next.on('notification', (message) => {
      if (message.channel === KEY_CHANGES_CHANNEL) generation++;
    });
    next.on('error', () => lose(next));
    next.on('end', () => lose(next));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      if (client === next) {
        generation++;
        listening = !closed;
      }
    } catch {
      lose(next);
    } finally {
      connecting = false;
    }
  };

  return {
    current: () => {
      if (listening) return String(generation);
      void connect();
      return null;
    },
    changed: () => {
      generation++;
    },
    close: async () => {
      closed = true;
      listening = false;
      if (retry) clearTimeout(retry);
      const open = client;
      client = null;
      if (open) {
        open.removeAllListeners();
        open.on('error', () => {});
        await open.end().catch(() => {});
      }
    },
  };
}

/**
 * Values read from the database that stay valid while keys, grants and webhooks do not change (the
 * stamp of KeyChanges): emptied when the stamp moves, and nothing kept while it is unknown. A full
 * cache is simply emptied.
 */
export class KeyChangeCache<V> {
  private readonly values = new Map<string, V>();
  private stamp: string | null = null;

  constructor(
    private readonly changes: KeyChanges,
    private readonly capacity: number,
  ) {}

  /** The value kept for `key` under the current stamp, or undefined. */
  get(key: string): V | undefined {
    const stamp = this.changes.current();
    if (stamp !== this.stamp) {
      this.values.clear();
      this.stamp = stamp;
    }
    return stamp === null ? undefined : this.values.get(key);
  }

  /** The stamp to give `keep` for a value about to be read. */
  readStamp(): string | null {
    return this.changes.current();
  }

  /** Keeps a value read under `readStamp`, unless the stamp moved meanwhile (it may predate a change). */
  keep(key: string, value: V, readStamp: string | null): void {
    if (readStamp === null || this.changes.current() !== readStamp || this.stamp !== readStamp) return;
    if (this.values.size >= this.capacity) this.values.clear();
    this.values.set(key, value);
  }
}
