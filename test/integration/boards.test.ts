import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/database.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('boards ($dialect)', ({ dialect, skip }) => {
  let t: TestApp;
  beforeAll(async () => {
    if (!skip) t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.skipIf(skip)('', () => {
    it('creates a board, grants the creating key edit, and lists it', async () => {
      const { key } = await t.createKey({});
      const created = await t.request(key, 'POST', '/api/ext/v1/boards', { name: '  Roadmap  ' });
      expect(created.statusCode).toBe(201);
      const board = created.json().data;
      expect(board).toMatchObject({ name: 'Roadmap' });
      expect(board.id).toMatch(/^brd_/);

      const list = await t.request(key, 'GET', '/api/ext/v1/boards');
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toContainEqual({ id: board.id, name: 'Roadmap', permission: 'edit' });

      const detail = await t.request(key, 'GET', `/api/ext/v1/boards/${board.id}`);
      expect(detail.json()).toEqual({ data: { id: board.id, name: 'Roadmap', lanes: [] } });
    });

    it('rejects a missing or blank name with validation_error naming the field', async () => {
      const { key } = await t.createKey('all');
      for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(201) }]) {
        const res = await t.request(key, 'POST', '/api/ext/v1/boards', body);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('validation_error');
        expect(res.json().error.message).toContain('name');
      }
    });
  });
});
