import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/test-app.js';

describe('GET /healthz', () => {
  it('answers ok while the database answers, and 503 unavailable in the error format when it does not', async () => {
    const t = await buildTestApp('sqlite');
    try {
      const ok = await t.request(null, 'GET', '/healthz');
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ status: 'ok' });

      await t.db.database.close();
      const down = await t.request(null, 'GET', '/healthz');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        error: { code: 'unavailable', message: 'The database does not answer.' },
      });
    } finally {
      await t.app.close();
      if (t.db.sqliteFile) fs.rmSync(t.db.sqliteFile, { force: true });
    }
  });
});
