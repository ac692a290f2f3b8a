import { expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { describeEachDialect } from '../support/dialects.js';
import { createBoard, createTask, expectError, useTaskApp } from './task-fixtures.js';

describeEachDialect('comments', (dialect) => {
  const { t, events, clock, freshTask } = useTaskApp(dialect);

  it('adds comments with attribution and lists the thread oldest first', async () => {
    const { fx, task, url } = await freshTask('comments');
    const first = await t.request(fx.key, 'POST', url, { body: ' Looks good ', authorName: ' Ada ' });
    expect(first.statusCode).toBe(201);
    const created = first.json().data;
    expect(created).toEqual({
      id: expect.stringMatching(/^cmt_/),
      body: 'Looks good',
      authorName: 'Ada',
      authorSource: 'api',
      source: 'api',
      createdAt: new Date(clock.ms).toISOString(),
      reactions: [],
    });
    // Same millisecond on purpose: the thread still keeps the order of creation.
    const second = await t.request(fx.key, 'POST', url, {
      body: 'Done.',
      authorName: 'Bot',
      source: 'agent',
    });
    expect(second.json().data).toMatchObject({ authorSource: 'agent', source: 'agent' });
    const third = await t.request(fx.key, 'POST', url, {
      body: 'Thanks',
      authorName: 'Ada',
      source: 'api',
    });

    const list = await t.request(fx.key, 'GET', url);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([created, second.json().data, third.json().data]);

    expect(events.take()).toEqual([
      {
        type: 'comment.created',
        boardId: fx.boardId,
        data: { task_id: task.id, comment_id: created.id, authorName: 'Ada', source: 'api', mentions: [] },
      },
      {
        type: 'comment.created',
        boardId: fx.boardId,
        data: {
          task_id: task.id,
          comment_id: second.json().data.id,
          authorName: 'Bot',
          source: 'agent',
          mentions: [],
        },
      },
      {
        type: 'comment.created',
        boardId: fx.boardId,
        data: {
          task_id: task.id,
          comment_id: third.json().data.id,
          authorName: 'Ada',
          source: 'api',
          mentions: [],
        },
      },
    ]);
  });

  it('attributes web UI comments to `user` and records no webhook event for them', async () => {
    const { fx, task, url } = await freshTask('comments');
    const person: Actor = { kind: 'user', origin: 'ui', userId: 'usr_1', name: 'Person', role: 'member' };
    const comment = await t.services.comments.createComment(person, fx.boardId, task.id, {
      body: 'From the board',
      authorName: 'Grace',
      source: 'agent',
    });
    expect(comment).toMatchObject({ authorSource: 'user', source: 'user' });
    expect(events.take()).toEqual([]);
    expect((await t.request(fx.key, 'GET', url)).json().data[0]).toMatchObject({ authorSource: 'user' });
  });

  it('rejects invalid bodies naming the field', async () => {
    const { fx, url } = await freshTask('comments');
    const cases: Array<[unknown, string]> = [
      [{ authorName: 'A' }, 'body'],
      [{ body: '  ', authorName: 'A' }, 'body'],
      [{ body: 'x'.repeat(50_001), authorName: 'A' }, 'body'],
      [{ body: 'Hi' }, 'authorName'],
      [{ body: 'Hi', authorName: ' ' }, 'authorName'],
      [{ body: 'Hi', authorName: 'x'.repeat(201) }, 'authorName'],
      [{ body: 'Hi', authorName: 'A', source: 'user' }, 'source'],
      [{ body: 'Hi', authorName: 'A', pinned: true }, 'pinned'],
    ];
    for (const [body, field] of cases) {
      expectError(await t.request(fx.key, 'POST', url, body), 400, 'validation_error', field);
    }
    const longest = await t.request(fx.key, 'POST', url, {
      body: 'x'.repeat(50_000),
      authorName: 'x'.repeat(200),
    });
    expect(longest.statusCode).toBe(201);
    events.take();
  });

  it('deletes a comment; 404 for missing comments, comments of other tasks and missing tasks', async () => {
    const { fx, task, url } = await freshTask('comments');
    const created = (await t.request(fx.key, 'POST', url, { body: 'Bye', authorName: 'A' })).json().data;
    const otherTask = await createTask(t, fx, { laneId: fx.laneIds[0] as string });
    const otherUrl = `${fx.url}/tasks/${otherTask.id}/comments`;
    events.take();

    expectError(await t.request(fx.key, 'DELETE', `${otherUrl}/${created.id}`), 404, 'not_found');
    expectError(await t.request(fx.key, 'DELETE', `${url}/cmt_missing`), 404, 'not_found');
    const res = await t.request(fx.key, 'DELETE', `${url}/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(events.take()).toEqual([
      { type: 'comment.deleted', boardId: fx.boardId, data: { task_id: task.id, comment_id: created.id } },
    ]);
    expect((await t.request(fx.key, 'GET', url)).json().data).toEqual([]);
    expectError(await t.request(fx.key, 'DELETE', `${url}/${created.id}`), 404, 'not_found');

    const missingTask = `${fx.url}/tasks/task_missing/comments`;
    expectError(await t.request(fx.key, 'GET', missingTask), 404, 'not_found');
    expectError(
      await t.request(fx.key, 'POST', missingTask, { body: 'x', authorName: 'A' }),
      404,
      'not_found',
    );
    const other = await createBoard(t, ['X']);
    events.take();
    const crossBoard = `${other.url}/tasks/${task.id}/comments`;
    expectError(await t.request(other.key, 'GET', crossBoard), 404, 'not_found');
    expectError(
      await t.request(other.key, 'POST', crossBoard, { body: 'x', authorName: 'A' }),
      404,
      'not_found',
    );
    expect(events.take()).toEqual([]);
  });

  it('needs read to list and edit to add or delete', async () => {
    const { fx, url } = await freshTask('comments');
    const created = (await t.request(fx.key, 'POST', url, { body: 'Hi', authorName: 'A' })).json().data;
    events.take();
    const { key: readKey } = await t.createKey({ [fx.boardId]: 'read' });
    const { key: strangerKey } = await t.createKey({});

    expect((await t.request(readKey, 'GET', url)).statusCode).toBe(200);
    expectError(await t.request(strangerKey, 'GET', url), 403, 'forbidden');
    for (const key of [readKey, strangerKey]) {
      expectError(await t.request(key, 'POST', url, { body: 'x', authorName: 'A' }), 403, 'forbidden');
      expectError(await t.request(key, 'DELETE', `${url}/${created.id}`), 403, 'forbidden');
    }
    expect(events.take()).toEqual([]);
    expect((await t.request(fx.key, 'GET', url)).json().data).toHaveLength(1);
  });

  it('deleting the task deletes its comments', async () => {
    const { fx, task, url } = await freshTask('comments');
    await t.request(fx.key, 'POST', url, { body: 'Hi', authorName: 'A' });
    expect((await t.request(fx.key, 'DELETE', `${fx.url}/tasks/${task.id}`)).statusCode).toBe(204);
    const left = await t.db.database.kysely
      .selectFrom('comments')
      .select('id')
      .where('task_id', '=', task.id)
      .execute();
    expect(left).toEqual([]);
    events.take();
  });
});
