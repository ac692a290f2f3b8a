import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

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
 * SQLite: `PRAGMA data_version` changes when another connection (another instance or a CLI process)
 * commits to the file. This connection's own writes to keys, grants and webhooks are counted by temporary
 * triggers (they live only on this connection, not in the schema) that call back into this process:
 * counting every write of the connection instead (`total_changes()`) emptied the cache on each task
 * create, so a write-heavy moment paid a key lookup per request. The triggers are installed on the
 * first `current()` outside a transaction, after migrations made the tables; until then, every own
 * write counts.
 */
export function sqliteKeyChanges(sqlite: SqliteDatabase.Database): KeyChanges {
  // The pragma statement itself: a third cheaper than selecting from pragma_data_version.
  const version = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  let local = 0;
  let counting = false;
  const countOwnKeyWrites = (): boolean => {
    // Not inside another request's open transaction: its rollback would take the triggers with it.
    if (sqlite.inTransaction) return false;
    try {
      sqlite.function('laneboard_key_written', { varargs: false }, () => {
        local++;
        return null;
      });
      for (const table of ['api_keys', 'api_key_grants', 'webhooks']) {
        for (const event of ['insert', 'update', 'delete']) {
          sqlite.exec(
            `create temp trigger if not exists laneboard_${table}_${event} after ${event} on main.${table}
             begin select laneboard_key_written(); end`,
          );
        }
      }
      return true;
    } catch {
      // The tables do not exist yet (before migrations): try again on the next call.
      return false;
    }
  };
  return {
    current: () => {
      if (!counting) counting = countOwnKeyWrites();
      const own = counting ? local : `${local}:${totalChanges.get() as number}`;
      return `${version.get() as number}:${own}`;
    },
    changed: () => {
      local++;
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
export function pgKeyChanges(pool: pg.Pool): KeyChanges {
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
    const next = new pg.Client(pool.options);
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
