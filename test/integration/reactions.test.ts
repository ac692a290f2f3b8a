import { expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { createBoard, createTask, expectError, ManualClock, RecordingEvents } from './task-fixtures.js';

describeEachDialect('reactions', (dialect) => {
  const events = new RecordingEvents();
  const clock = new ManualClock();

  const t = useTestApp(dialect, { events, clock });

  async function commentWithBoard() {
    const fx = await createBoard(t, ['Todo']);
    const task = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    const comments = `${fx.url}/tasks/${task.id}/comments`;
    const comment = (await t.request(fx.key, 'POST', comments, { body: 'Ship it', authorName: 'Ada' })).json()
      .data;
    events.take();
    return { fx, task, comments, comment, url: `${comments}/${comment.id}/reactions` };
  }

  async function reactionsOf(key: string, comments: string, commentId: string) {
    const list = await t.request(key, 'GET', comments);
    expect(list.statusCode).toBe(200);
    return list.json().data.find((c: { id: string }) => c.id === commentId).reactions;
  }

  it('adds a reaction (201), idempotently (200, no second event), and removes it (204)', async () => {
    const { fx, task, comment, comments, url } = await commentWithBoard();
    const added = await t.request(fx.key, 'PUT', `${url}/heart`);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toEqual({
      commentId: comment.id,
      content: 'heart',
      count: 1,
      createdAt: new Date(clock.ms).toISOString(),
    });
    clock.advance();
    const again = await t.request(fx.key, 'PUT', `${url}/heart`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(added.json().data);
    expect(await reactionsOf(fx.key, comments, comment.id)).toEqual([{ content: 'heart', count: 1 }]);

    const removed = await t.request(fx.key, 'DELETE', `${url}/heart`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expectError(await t.request(fx.key, 'DELETE', `${url}/heart`), 404, 'not_found', 'Reaction');
    expect(await reactionsOf(fx.key, comments, comment.id)).toEqual([]);

    const data = { task_id: task.id, comment_id: comment.id, content: 'heart' };
    expect(events.take()).toEqual([
      { type: 'reaction.created', boardId: fx.boardId, data },
      { type: 'reaction.deleted', boardId: fx.boardId, data },
    ]);
  });

  it('counts per actor and lists the contents in the fixed order, only those with a count', async () => {
    const { fx, task, comment, comments, url } = await commentWithBoard();
    const other = (await t.createKey({ [fx.boardId]: 'edit' })).key;
    // Added in an order unlike the fixed one; `+1` sent percent-encoded and plain.
    for (const content of ['eyes', 'rocket', '%2B1', 'laugh']) {
      expect((await t.request(fx.key, 'PUT', `${url}/${content}`)).statusCode).toBe(201);
    }
    expect((await t.request(other, 'PUT', `${url}/+1`)).json().data.count).toBe(2);
    expect((await t.request(other, 'PUT', `${url}/eyes`)).statusCode).toBe(201);
    // A person in the web UI is another actor again (reactions are not only API keys').
    const person: Actor = { kind: 'user', origin: 'ui', userId: 'usr_test', name: 'Ada', role: 'member' };
    const ui = await t.services.reactions.addReaction(person, fx.boardId, task.id, comment.id, '+1');
    expect(ui).toMatchObject({ created: true, reaction: { count: 3 } });
    expect(await reactionsOf(fx.key, comments, comment.id)).toEqual([
      { content: '+1', count: 3 },
      { content: 'laugh', count: 1 },
      { content: 'rocket', count: 1 },
      { content: 'eyes', count: 2 },
    ]);
    // Removing one's own reaction leaves the others'.
    expect((await t.request(other, 'DELETE', `${url}/eyes`)).statusCode).toBe(204);
    expect((await reactionsOf(fx.key, comments, comment.id)).at(-1)).toEqual({ content: 'eyes', count: 1 });
    // Web UI reactions record no webhook events; the API's do.
    expect(events.take().map((e) => e.type)).toEqual([
      ...Array(6).fill('reaction.created'),
      'reaction.deleted',
    ]);
  });

  it('rejects another content with 400 naming `content`', async () => {
    const { fx, url } = await commentWithBoard();
    for (const content of ['thumbsup', '%2B2', 'HEART']) {
      expectError(await t.request(fx.key, 'PUT', `${url}/${content}`), 400, 'validation_error', '`content`');
      expectError(
        await t.request(fx.key, 'DELETE', `${url}/${content}`),
        400,
        'validation_error',
        '`content`',
      );
    }
  });

  it('needs edit; a missing comment, or one of another task, is 404', async () => {
    const { fx, url, comments } = await commentWithBoard();
    const reader = (await t.createKey({ [fx.boardId]: 'read' })).key;
    const stranger = (await t.createKey({})).key;
    expectError(await t.request(reader, 'PUT', `${url}/heart`), 403, 'forbidden');
    expectError(await t.request(reader, 'DELETE', `${url}/heart`), 403, 'forbidden');
    expectError(await t.request(stranger, 'PUT', `${url}/heart`), 403, 'forbidden');
    const missing = `${comments}/cmt_missing/reactions/heart`;
    expectError(await t.request(fx.key, 'PUT', missing), 404, 'not_found', 'Comment');
    const otherTask = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    const wrongTask = url.replace(/tasks\/[^/]+/, `tasks/${otherTask.id}`);
    expectError(await t.request(fx.key, 'PUT', `${wrongTask}/heart`), 404, 'not_found', 'Comment');
    expectError(
      await t.request(fx.key, 'PUT', `${url.replace(/tasks\/[^/]+/, 'tasks/task_missing')}/heart`),
      404,
      'not_found',
      'Task',
    );
    expect(events.take().map((e) => e.type)).toEqual(['task.created']);
  });

  it('deleting the comment removes its reactions', async () => {
    const { fx, comment, comments, url } = await commentWithBoard();
    await t.request(fx.key, 'PUT', `${url}/rocket`);
    expect((await t.request(fx.key, 'DELETE', `${comments}/${comment.id}`)).statusCode).toBe(204);
    const left = await t.db.database.kysely
      .selectFrom('reactions')
      .select('content')
      .where('comment_id', '=', comment.id)
      .execute();
    expect(left).toEqual([]);
  });
});
