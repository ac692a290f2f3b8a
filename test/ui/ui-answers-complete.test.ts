import { expect, it } from 'vitest';
import { describeEachDialect, useFixture } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { useUiTestApp } from './ui-support.js';

/** What the browser would get if the answer were sent as the service returned it (JSON.stringify). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/*
 * The UI API's routes serialise with response schemas (src/schemas), which drop every field they do
 * not name. These answers must still be exactly what the services return: a field added to a view
 * without adding it to the schema fails here instead of silently never reaching the browser.
 */
describeEachDialect('web UI answers: every field the services return reaches the browser', (dialect) => {
  const receiver = useFixture(
    'the webhook receiver',
    () => WebhookReceiver.start(),
    (r) => r.close(),
  );
  const t = useUiTestApp(dialect, { deliver: true });

  it('the board view, histories, inbox, settings, people and agents answer what their services return', async () => {
    const owner = await t.person('owner', 'Olive');
    const mo = await t.person('member', 'Mo');
    const session = await t.services.sessions.authenticate(owner.browser.cookie as string);
    const actor = session?.actor;
    if (!actor) throw new Error('the owner is not signed in');
    const ui = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
      const response = await owner.browser.request(method, `/api/ui${url}`, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response.body === '' ? null : response.json();
    };

    // A board with a lane, a task with a todo, a comment, a mention and an assignee; a muted board.
    const board = (await ui('POST', '/boards', { name: 'Answers' })).data;
    const lane = (await ui('POST', `/boards/${board.id}/lanes`, { name: 'Todo' })).data;
    const task = (await ui('POST', `/boards/${board.id}/tasks`, { laneId: lane.id, title: 'Check' })).data;
    await ui('POST', `/boards/${board.id}/tasks/${task.id}/todos`, { text: 'one', iteration: 0 });
    await mo.browser.request('PUT', `/api/ui/boards/${board.id}/tasks/${task.id}/assignees/${owner.id}`, {});
    await mo.browser.request('POST', `/api/ui/boards/${board.id}/tasks/${task.id}/comments`, {
      body: 'over to you @Olive',
    });
    await ui('PUT', `/boards/${board.id}/mute`, {});
    await ui('POST', '/invites', { role: 'member' });
    const agent = (await ui('POST', '/agents', { name: 'Runner', description: 'builds' })).data;
    await ui('POST', `/agents/${agent.id}/keys`, { name: 'runner key', allBoards: true, grants: [] });

    // A key that a webhook counts on, used through the external API: a delivery with an attempt.
    const key = (
      await ui('POST', '/keys', {
        name: 'integration',
        allBoards: false,
        grants: [{ boardId: board.id, permission: 'edit' }],
      })
    ).data;
    await ui('POST', `/keys/${key.id}/reveal`, { password: 'correct horse battery' });
    const hook = (
      await ui('POST', '/webhooks', { url: receiver.url('/hook'), events: ['*'], apiKeyId: key.id })
    ).data;
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/ext/v1/boards/${board.id}/tasks`,
      headers: { authorization: `Bearer ${key.key}` },
      payload: { laneId: lane.id, title: 'From the API' },
    });
    expect(created.statusCode).toBe(201);
    await waitUntil('the delivery and the key use are recorded', async () => {
      const detail = (await ui('GET', `/webhooks/${hook.id}`)).data;
      const listed = (await ui('GET', '/keys')).data.find((k: { id: string }) => k.id === key.id);
      return detail.deliveries[0]?.status === 'delivered' && listed?.lastUsedAt ? true : undefined;
    });

    const { services } = t;
    const answers: Array<[url: string, expected: unknown, enveloped?: false]> = [
      [`/boards/${board.id}/view`, await services.boardView.getView(actor, board.id)],
      [
        `/boards/${board.id}/view?archived=true`,
        await services.boardView.getView(actor, board.id, { archived: true }),
      ],
      [
        `/boards/${board.id}/activities`,
        await services.activities.listForBoard(actor, board.id, { grouped: true }),
        false,
      ],
      [
        `/boards/${board.id}/tasks/${task.id}/activities`,
        await services.activities.listForTask(actor, board.id, task.id, { grouped: true }),
        false,
      ],
      [
        `/boards/${board.id}/tasks/${task.id}/comments`,
        await services.comments.listComments(actor, board.id, task.id),
      ],
      ['/notifications', await services.notifications.list(actor), false],
      ['/notifications/muted-boards', await services.notifications.mutedBoards(actor)],
      ['/keys', await services.keyConsole.list(actor)],
      ['/webhooks', await services.webhookConsole.list(actor)],
      [`/webhooks/${hook.id}`, await services.webhookConsole.get(actor, hook.id, undefined)],
      ['/people', await services.people.listPeople(actor)],
      ['/invites', await services.people.listInvites(actor)],
      ['/agents', await services.agents.listAgents(actor)],
      ['/members', await services.agents.listMembers(actor)],
    ];
    for (const [url, expected, enveloped] of answers) {
      const body = await ui('GET', url);
      expect(enveloped === false ? body : body.data, url).toEqual(plain(expected));
    }
    // The data is not empty where it matters: the comparisons above saw every kind of field.
    const detail = (await ui('GET', `/webhooks/${hook.id}`)).data;
    expect(detail.deliveries[0]).toMatchObject({ subject: { type: 'task' }, attempts: [{ number: 1 }] });
    expect((await ui('GET', '/notifications')).data.map((n: { kind: string }) => n.kind).sort()).toEqual([
      'assigned',
      'mentioned',
    ]);
    expect((await ui('GET', '/keys')).data.find((k: { id: string }) => k.id === key.id).reveals).toHaveLength(
      1,
    );
  });
});
