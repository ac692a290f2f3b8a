import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { type Browser, OPERATOR, useUiTestApp } from '../ui/ui-support.js';
import { notificationScene } from './notification-fixtures.js';

interface Listed {
  id: string;
  kind: string;
  task: { id: string; shortId: string; title: string };
  board: { id: string; name: string };
  actor: { kind: string; name: string };
  read: boolean;
}

describeEachDialect('notifications', (dialect) => {
  const t = useUiTestApp(dialect);

  const setup = () => notificationScene(t, { boardName: 'Inbox board', taskTitle: 'Ship it' });
  type Inbox = { data: Listed[]; unread: number; nextCursor: string | null };
  const inbox = async (who: { browser: Browser }): Promise<Inbox> => {
    const res = await who.browser.request('GET', '/api/ui/notifications');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('notifies of assignment, mentions, comments, moves and finished todos by someone else', async () => {
    const s = await setup();
    await s.ext('PUT', `${s.base}/assignees/${s.ada.id}`);
    await s.ext('POST', `${s.base}/comments`, {
      body: `@${s.bob.email} no; @${await name(s.bob.id)} look`,
      authorName: 'CI',
    });
    await s.ext('POST', `${s.base}/move`, { laneId: s.done.id });
    const item = await s.ext('POST', `${s.base}/todos`, { text: 'one', iteration: 1 });
    await s.ext('PATCH', `${s.base}/todos/${item.id}`, { done: true });
    // A later edit of the finished list says nothing new while the first is unread.
    await s.ext('PATCH', `${s.base}/todos/${item.id}`, { text: 'one!' });

    const ada = await inbox(s.ada);
    expect(ada.data.map((n) => n.kind)).toEqual(['todos_done', 'moved', 'commented', 'assigned']);
    expect(ada.unread).toBe(4);
    expect(ada.data[0]).toMatchObject({
      task: { id: s.task.id, title: 'Ship it' },
      board: { id: s.board.id, name: 'Inbox board' },
      actor: { kind: 'api_key', name: 'ci' },
      read: false,
    });
    expect(ada.data[0]?.task.shortId).toMatch(/^[0-9a-z]{8}$/);
    const bob = await inbox(s.bob);
    expect(bob.data.map((n) => n.kind)).toEqual(['mentioned']);
  });

  it('mentions in a description notify on create and only the newly mentioned on a change', async () => {
    const s = await setup();
    const ada = await name(s.ada.id);
    const bob = await name(s.bob.id);
    const task = await s.ext('POST', `/boards/${s.board.id}/tasks`, {
      title: 'Described',
      laneId: s.todo.id,
      description: `for @${ada}`,
    });
    await s.ext('PATCH', `/boards/${s.board.id}/tasks/${task.id}`, {
      description: `for @${ada} and @${bob}`,
    });
    await s.ext('PATCH', `/boards/${s.board.id}/tasks/${task.id}`, {
      description: `still @${ada} and @${bob}.`,
    });
    expect((await inbox(s.ada)).data.map((n) => [n.kind, n.task.id])).toEqual([['mentioned', task.id]]);
    expect((await inbox(s.bob)).data.map((n) => [n.kind, n.task.id])).toEqual([['mentioned', task.id]]);
  });

  it('nothing for your own actions, for the deactivated, or on a muted board except mentions', async () => {
    const s = await setup();
    const adaName = await name(s.ada.id);
    // Ada assigns herself and comments on her own task: nothing.
    expect((await s.ada.browser.request('PUT', `/api/ui${s.base}/assignees/${s.ada.id}`)).statusCode).toBe(
      201,
    );
    const own = await s.ada.browser.request('POST', `/api/ui${s.base}/comments`, { body: `me, @${adaName}` });
    expect(own.statusCode, own.body).toBe(201);
    expect((await inbox(s.ada)).data).toEqual([]);

    // Muted: the move is silent, a mention still comes through.
    expect((await s.ada.browser.request('PUT', `/api/ui/boards/${s.board.id}/mute`)).statusCode).toBe(204);
    expect((await s.ada.browser.request('GET', '/api/ui/notifications/muted-boards')).json().data).toEqual([
      { id: s.board.id, name: 'Inbox board' },
    ]);
    await s.ext('POST', `${s.base}/move`, { laneId: s.done.id });
    await s.ext('POST', `${s.base}/comments`, { body: `@${adaName} see`, authorName: 'CI' });
    expect((await inbox(s.ada)).data.map((n) => n.kind)).toEqual(['mentioned']);
    expect((await s.ada.browser.request('DELETE', `/api/ui/boards/${s.board.id}/mute`)).statusCode).toBe(204);
    await s.ext('POST', `${s.base}/move`, { laneId: s.todo.id });
    expect((await inbox(s.ada)).data.map((n) => n.kind)).toEqual(['moved', 'mentioned']);

    // Bob, deactivated, is assigned before and hears nothing after.
    await s.ext('PUT', `${s.base}/assignees/${s.bob.id}`);
    const before = (await t.services.notifications.list(asUser(s.bob.id), {})).data.length;
    await t.services.people.deactivate(OPERATOR, s.bob.id);
    await s.ext('POST', `${s.base}/move`, { laneId: s.done.id });
    expect((await t.services.notifications.list(asUser(s.bob.id), {})).data.length).toBe(before);
  });

  it('counts, marks read one and all; a person sees only their own', async () => {
    const s = await setup();
    await s.ext('PUT', `${s.base}/assignees/${s.ada.id}`);
    await s.ext('POST', `${s.base}/move`, { laneId: s.done.id });
    await s.ext('POST', `${s.base}/move`, { laneId: s.todo.id });
    const count = async () =>
      (await s.ada.browser.request('GET', '/api/ui/notifications/unread-count')).json().data.unread;
    expect(await count()).toBe(3);
    const [newest, , oldest] = (await inbox(s.ada)).data;
    if (!newest || !oldest) throw new Error('three notifications expected');

    // Bob cannot read Ada's: 404, and nothing changes.
    const other = await s.bob.browser.request('POST', `/api/ui/notifications/${newest.id}/read`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('not_found');
    expect(await count()).toBe(3);
    expect((await s.bob.browser.request('GET', '/api/ui/notifications')).json().data).toEqual([]);

    expect((await s.ada.browser.request('POST', `/api/ui/notifications/${newest.id}/read`)).statusCode).toBe(
      204,
    );
    expect((await s.ada.browser.request('POST', `/api/ui/notifications/${newest.id}/read`)).statusCode).toBe(
      204,
    );
    expect(await count()).toBe(2);
    expect((await inbox(s.ada)).data.map((n) => n.read)).toEqual([true, false, false]);

    // Paging: newest first, a cursor to the older ones.
    const first = (await s.ada.browser.request('GET', '/api/ui/notifications?limit=2')).json();
    expect(first.data).toHaveLength(2);
    const rest = (
      await s.ada.browser.request('GET', `/api/ui/notifications?limit=2&before=${first.nextCursor}`)
    ).json();
    expect(rest.data.map((n: Listed) => n.id)).toEqual([oldest.id]);
    expect(rest.nextCursor).toBeNull();
    const unreadOnly = (await s.ada.browser.request('GET', '/api/ui/notifications?unread=true')).json();
    expect(unreadOnly.data).toHaveLength(2);

    const all = await s.ada.browser.request('POST', '/api/ui/notifications/read-all');
    expect(all.json().data).toEqual({ marked: 2 });
    expect(await count()).toBe(0);
  });

  it('refuses bad input and strangers', async () => {
    const s = await setup();
    const bad = await s.ada.browser.request('GET', '/api/ui/notifications?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_error');
    expect(bad.json().error.message).toContain('limit');
    const cursor = await s.ada.browser.request('GET', '/api/ui/notifications?before=nope');
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().error.message).toContain('before');
    const unknown = await s.ada.browser.request(
      'POST',
      '/api/ui/notifications/ntf_000000000000000000000/read',
    );
    expect(unknown.statusCode).toBe(404);
    const noBoard = await s.ada.browser.request('PUT', '/api/ui/boards/brd_nope/mute');
    expect(noBoard.statusCode).toBe(404);
    expect((await t.browser().request('GET', '/api/ui/notifications')).statusCode).toBe(401);
  });

  async function name(id: string): Promise<string> {
    const row = await t.db.database.kysely
      .selectFrom('users')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.name;
  }

  function asUser(id: string) {
    return { kind: 'user', origin: 'ui', userId: id, name: 'x', role: 'member' } as const;
  }
});
