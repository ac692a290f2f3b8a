import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;

/**
 * A new, EMPTY schema on the test server (nothing migrated: the servers under test do that), with a
 * small pool on it for the test's own checks of what the servers stored.
 */
export class EmptySchema {
  private constructor(
    readonly name: string,
    private readonly pool: pg.Pool,
  ) {}

  static async create(prefix = 'lbe2e'): Promise<EmptySchema> {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    const name = `${prefix}_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`create schema ${name}`);
    } finally {
      await admin.end();
    }
    const pool = new pg.Pool({ connectionString: EmptySchema.urlFor(name), max: 2 });
    pool.on('error', () => {});
    return new EmptySchema(name, pool);
  }

  /** DATABASE_URL for a server on this schema; extra query parameters (e.g. application_name) added. */
  url(params: Record<string, string> = {}): string {
    return EmptySchema.urlFor(this.name, params);
  }

  private static urlFor(schema: string, params: Record<string, string> = {}): string {
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  }

  async query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query<Row>(text, values)).rows;
  }

  async drop(): Promise<void> {
    await this.pool.end();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL ?? '' });
    await admin.connect();
    try {
      await admin.query(`drop schema if exists ${this.name} cascade`);
    } finally {
      await admin.end();
    }
  }
}
