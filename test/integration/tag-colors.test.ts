import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeyActor } from '../../src/domain/actor.js';
import { derivedTagColor } from '../../src/domain/boards/tag-color-rules.js';
import { SseClient } from '../live/sse-client.js';
import { describeEachDialect } from '../support/dialects.js';
import { type Browser, buildUiTestApp, expectErrorCode, OPERATOR, type UiTestApp } from '../ui/ui-support.js';

const EXT = '/api/ext/v1';

/** A key's actor with the given grant on one board (the domain's rights, without HTTP). */
function keyActor(boardId: string, permission: 'read' | 'edit'): KeyActor {
  return {
    kind: 'api_key',
    origin: 'api',
    keyId: 'key_test',
    name: 'Test key',
    allBoards: false,
    grants: new Map([[boardId, permission]]),
    agent: null,
    person: null,
  };
}

describeEachDialect('tag colours per board', (dialect) => {
  let t: UiTestApp;
  let base: string;
  let ada: { id: string; browser: Browser };
  let extKey: string;

  beforeAll(async () => {
    t = await buildUiTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    ada = await t.person('member', 'Ada');
    extKey = (await t.services.apiKeys.createKey(OPERATOR, { name: 'ci', allBoards: true, grants: [] })).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const ui = (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) =>
    ada.browser.request(method, `/api/ui${url}`, body);
  async function newBoard(): Promise<string> {
    const res = await ui('POST', '/boards', { name: 'Colours' });
    return res.json().data.id as string;
  }
  /** A palette colour that is not the tag's derived one. */
  const otherThanDerived = (tag: string) => (derivedTagColor(tag) === 'red' ? 'blue' : 'red');

  it('stores a chosen colour, shows it with the board, the board view and the external API, and clears it', async () => {
    const boardId = await newBoard();
    const chosen = otherThanDerived('bug');
    const set = await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: ' bug ', color: chosen });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toEqual({ tag: 'bug', color: chosen, chosen: true });

    expect((await ui('GET', `/boards/${boardId}/tag-colors`)).json().data).toEqual([
      { tag: 'bug', color: chosen },
    ]);
    expect((await ui('GET', `/boards/${boardId}/view`)).json().data.tagColors).toEqual([
      { tag: 'bug', color: chosen },
    ]);
    const ext = await t.app.inject({
      method: 'GET',
      url: `${EXT}/boards/${boardId}`,
      headers: { authorization: `Bearer ${extKey}` },
    });
    expect(ext.json().data).toMatchObject({ id: boardId, tagColors: [{ tag: 'bug', color: chosen }] });

    // Choosing the derived colour clears the row: nothing is stored for a tag that shows its own colour.
    const derived = derivedTagColor('bug');
    const back = await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'bug', color: derived });
    expect(back.json().data).toEqual({ tag: 'bug', color: derived, chosen: false });
    expect((await ui('GET', `/boards/${boardId}/tag-colors`)).json().data).toEqual([]);
    const row = await t.runtime.database.kysely
      .selectFrom('board_tag_colors')
      .selectAll()
      .where('board_id', '=', boardId)
      .execute();
    expect(row).toEqual([]);

    // null clears too; a choice on one board leaves another board's tag alone.
    await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'bug', color: 'gray' });
    const other = await newBoard();
    expect((await ui('GET', `/boards/${other}/tag-colors`)).json().data).toEqual([]);
    await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'bug', color: null });
    expect((await ui('GET', `/boards/${boardId}/tag-colors`)).json().data).toEqual([]);
  });

  it('records one activity per change, none for a choice that changes nothing, and streams it live', async () => {
    const boardId = await newBoard();
    const view = (await ui('GET', `/boards/${boardId}/view`)).json().data;
    const stream = await SseClient.open(`${base}/api/ui/boards/${boardId}/events?after=${view.activityId}`, {
      cookie: `lb_session=${ada.browser.cookie}`,
    });
    try {
      const color = otherThanDerived('ops');
      await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'ops', color });
      await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'ops', color });
      await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'ops', color: null });
      const first = await stream.next((e) => e.event === 'tag.color_changed');
      expect(JSON.parse(first.data)).toMatchObject({ taskId: null, data: { tag: 'ops', color } });
      const cleared = await stream.next((e) => e.event === 'tag.color_changed' && e.id !== first.id);
      expect(JSON.parse(cleared.data)).toMatchObject({ data: { tag: 'ops', color: null } });
      const history = (await ui('GET', `/boards/${boardId}/activities`)).json().data;
      const changes = history.filter((a: { type: string }) => a.type === 'tag.color_changed');
      expect(changes).toHaveLength(2);
      expect(changes[0]).toMatchObject({ origin: 'ui', actor: { kind: 'user', name: 'Ada' } });
    } finally {
      await stream.close();
    }
  });

  it('refuses bad input with validation_error, an unknown board with not_found', async () => {
    const boardId = await newBoard();
    const put = (body: unknown) => ui('PUT', `/boards/${boardId}/tag-colors`, body);
    const unknown = await put({ tag: 'bug', color: 'chartreuse' });
    expectErrorCode(unknown, 400, 'validation_error');
    expect(unknown.json().error.message).toMatch(/`color` must be one of gray, red/);
    expectErrorCode(await put({ tag: '   ', color: 'red' }), 400, 'validation_error');
    expectErrorCode(await put({ tag: 'x'.repeat(51), color: 'red' }), 400, 'validation_error');
    expectErrorCode(await put({ tag: 'bug' }), 400, 'validation_error');
    expectErrorCode(await put({ tag: 'bug', color: '#ff0000' }), 400, 'validation_error');
    const ok = await put({ tag: 'x'.repeat(50), color: 'teal' });
    expect(ok.statusCode, ok.body).toBe(200);
    expectErrorCode(
      await ui('PUT', '/boards/brd_missing00000000000000/tag-colors', { tag: 'a', color: 'red' }),
      404,
      'not_found',
    );
    // Signed out: the session check refuses before anything is read.
    const anonymous = await t.browser().request('PUT', `/api/ui/boards/${boardId}/tag-colors`, {
      tag: 'a',
      color: 'red',
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lets every board editor choose and refuses readers (a read-only key) and strangers', async () => {
    const boardId = await newBoard();
    const service = t.services.tagColors;
    for (const role of ['owner', 'admin', 'member'] as const) {
      const person = await t.person(role, `${role} ${Math.random().toString(36).slice(2, 6)}`);
      const res = await person.browser.request('PUT', `/api/ui/boards/${boardId}/tag-colors`, {
        tag: role,
        color: 'green',
      });
      expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
    }
    await expect(
      service.setColor(keyActor(boardId, 'edit'), boardId, { tag: 'k', color: 'pink' }),
    ).resolves.toMatchObject({ tag: 'k', color: 'pink' });
    await expect(
      service.setColor(keyActor(boardId, 'read'), boardId, { tag: 'k', color: 'blue' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      service.setColor(keyActor('brd_other', 'edit'), boardId, { tag: 'k', color: 'blue' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    // A reader still sees the colours.
    const seen = await service.list(keyActor(boardId, 'read'), boardId);
    expect(seen.find((c) => c.tag === 'k')?.color).toBe('pink');
  });

  it('deletes the colours with their board', async () => {
    const boardId = await newBoard();
    await ui('PUT', `/boards/${boardId}/tag-colors`, { tag: 'bug', color: otherThanDerived('bug') });
    await t.services.boards.deleteBoard(OPERATOR, boardId);
    const rows = await t.runtime.database.kysely
      .selectFrom('board_tag_colors')
      .selectAll()
      .where('board_id', '=', boardId)
      .execute();
    expect(rows).toEqual([]);
  });
});
