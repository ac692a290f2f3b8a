import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { type Corpus, createCorpus, expectError, search, searchRaw } from './search-fixtures.js';

describeEachDialect('search: queries, kinds and rights', (dialect) => {
  const t = useTestApp(dialect);
  let c: Corpus;
  beforeAll(async () => {
    c = await createCorpus(t);
  });

  const ids = (body: { data: Array<{ taskId: string }> }) => body.data.map((r) => r.taskId);

  it('ranks a title match above a description match, and leaves archived tasks out', async () => {
    const body = await search(t, c.readAKey, { q: 'deploy' });
    expect(ids(body)).toEqual([c.pipeline, c.login]);
    expect(body.data[0]).toMatchObject({
      kind: 'task',
      boardId: c.boardA,
      title: 'Deploy pipeline overhaul',
    });
    expect(body.data[0]?.shortId).toEqual(expect.any(String));
    expect(body.data[1]?.snippet).toContain('[[deploy]]');
    expect(body.cursor).toBeNull();
    const archived = await search(t, c.readAKey, { q: 'deploy', includeArchived: 'true' });
    expect(ids(archived)).toContain(c.archived);
  });

  it('finds each kind of text, its task named, the matched word marked', async () => {
    const cases = [
      ['rewrite', 'task', c.pipeline],
      ['zebrafish', 'task', c.report],
      ['marmalade', 'comment', c.login],
      ['kumquat', 'todo', c.report],
      ['xylophone', 'turn', c.pipeline],
    ] as const;
    for (const [q, kind, taskId] of cases) {
      const body = await search(t, c.readAKey, { q });
      expect(body.data, q).toHaveLength(1);
      expect(body.data[0], q).toMatchObject({ kind, taskId, boardId: c.boardA });
      expect(body.data[0]?.snippet.toLowerCase(), q).toContain(`[[${q}]]`);
    }
    const comment = await search(t, c.readAKey, { q: 'marmalade' });
    expect(comment.data[0]?.title).toBe('Fix login form');
    // The matched text's own id, so a reader can open the task at it; none for a task's own text.
    expect(comment.data[0]?.itemId).toMatch(/^cmt_/);
    expect((await search(t, c.readAKey, { q: 'kumquat' })).data[0]?.itemId).toMatch(/^todo_/);
    expect((await search(t, c.readAKey, { q: 'xylophone' })).data[0]?.itemId).toMatch(/^turn_/);
    expect((await search(t, c.readAKey, { q: 'zebrafish' })).data[0]?.itemId).toBeNull();
    const onlyTodos = await search(t, c.readAKey, { q: 'kumquat', kind: 'task,comment' });
    expect(onlyTodos.data).toEqual([]);
  });

  it('keeps brackets of the text from reading as marks', async () => {
    const body = await search(t, c.readAKey, { q: 'xylophone' });
    const snippet = body.data[0]?.snippet ?? '';
    expect(snippet).toContain('[[xylophone]]');
    expect(snippet.match(/\[\[/g)).toHaveLength(1);
    expect(snippet.match(/\]\]/g)).toHaveLength(1);
    expect(snippet).toContain('wiki');
  });

  it('matches a prefix of the last word only', async () => {
    expect(ids(await search(t, c.readAKey, { q: 'marmal' }))).toEqual([c.login]);
    expect(ids(await search(t, c.readAKey, { q: 'browser marmal' }))).toEqual([c.login]);
    expect((await search(t, c.readAKey, { q: 'marmal browser' })).data).toEqual([]);
  });

  it('needs every word, matches quoted phrases in order and leaves excluded words out', async () => {
    expect(ids(await search(t, c.readAKey, { q: 'deploy rewrite' }))).toEqual([c.pipeline]);
    expect(ids(await search(t, c.readAKey, { q: '"staging server"' })).sort()).toEqual(
      [c.pipeline, c.login].sort(),
    );
    expect((await search(t, c.readAKey, { q: '"server staging"' })).data).toEqual([]);
    expect(ids(await search(t, c.readAKey, { q: 'deploy -login' }))).toEqual([c.pipeline]);
    expect(ids(await search(t, c.readAKey, { q: 'staging -"login form"' }))).toEqual([c.pipeline]);
    // Query syntax of either database is only text here.
    expect((await search(t, c.readAKey, { q: `deploy OR "x" NOT ':* & | ! ( ) <-> NEAR(` })).data).toEqual(
      [],
    );
  });

  it("never shows another board's text to a key that cannot read it", async () => {
    expect((await search(t, c.readAKey, { q: 'nightingale' })).data).toEqual([]);
    const all = await search(t, c.readAKey, { q: 'deploy', includeArchived: 'true' });
    expect(all.data.every((r) => r.boardId === c.boardA)).toBe(true);
    expectError(await searchRaw(t, c.readAKey, { q: 'deploy', boardId: c.boardB }), 403, 'forbidden');
    const everywhere = await search(t, c.allKey, { q: 'deploy' });
    expect(ids(everywhere)).toContain(c.secret);
    const onlyB = await search(t, c.allKey, { q: 'deploy', boardId: c.boardB });
    expect(ids(onlyB)).toEqual([c.secret]);
  });

  it('answers 400 naming the field for an empty or over-long q and a limit out of range', async () => {
    expectError(await searchRaw(t, c.readAKey, { q: '' }), 400, 'validation_error', 'q');
    expectError(await searchRaw(t, c.readAKey, { q: '   ' }), 400, 'validation_error', 'q');
    expectError(await searchRaw(t, c.readAKey, {}), 400, 'validation_error', 'q');
    expectError(await searchRaw(t, c.readAKey, { q: 'a'.repeat(201) }), 400, 'validation_error', 'q');
    expectError(await searchRaw(t, c.readAKey, { q: '-deploy' }), 400, 'validation_error', 'q');
    await search(t, c.readAKey, { q: 'a'.repeat(200) });
    for (const limit of ['0', '51', 'x']) {
      expectError(await searchRaw(t, c.readAKey, { q: 'deploy', limit }), 400, 'validation_error', 'limit');
    }
    expectError(await searchRaw(t, c.readAKey, { q: 'deploy', kind: 'task,bogus' }), 400, 'validation_error');
  });

  it('refuses a cursor of another query or a malformed one', async () => {
    const first = await search(t, c.readAKey, { q: 'deploy', limit: '1' });
    expect(first.data).toHaveLength(1);
    const cursor = first.cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const second = await search(t, c.readAKey, { q: 'deploy', limit: '1', cursor });
    expect(ids(second)).toEqual([c.login]);
    expect(second.cursor).toBeNull();
    expectError(await searchRaw(t, c.readAKey, { q: 'staging', cursor }), 400, 'validation_error', 'cursor');
    expectError(
      await searchRaw(t, c.readAKey, { q: 'deploy', kind: 'task', cursor }),
      400,
      'validation_error',
      'cursor',
    );
    expectError(
      await searchRaw(t, c.readAKey, { q: 'deploy', cursor: 'bm9wZQ' }),
      400,
      'validation_error',
      'cursor',
    );
  });
});
