import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { describeEachDialect } from '../support/dialects.js';
import { useWebhookApp } from '../support/webhook-app.js';
import { useReceiver } from '../support/webhook-receiver.js';
import { filePart, upload } from './asset-fixtures.js';

const API = '/api/ext/v1';
const PERSON: Actor = { kind: 'user', origin: 'ui', userId: 'usr_webhooks', name: 'Ada', role: 'member' };

interface Payload {
  type: string;
  data: Record<string, unknown>;
}

describeEachDialect('asset and reaction events', (dialect) => {
  const receiver = useReceiver();
  const t = useWebhookApp(dialect);

  it('go only to active ["*"] webhooks of keys with a grant, only for external-API changes', async () => {
    const { key, id: keyId } = await t.createKey('all');
    const board = await t.createBoard(key);
    const actor = { type: 'key', id: keyId, name: 'test' };
    const elsewhere = (await t.createKey({})).key; // a grant on another board only
    await t.createWebhook(key, receiver.url('/star'), ['*']);
    await t.createWebhook(key, receiver.url('/listed'), ['comment.created', 'task.deleted']);
    const paused = await t.createWebhook(key, receiver.url('/paused'), ['*']);
    expect(
      (await t.request(key, 'PATCH', `${API}/webhooks/${paused.id}`, { active: false })).statusCode,
    ).toBe(200);
    await t.createWebhook(elsewhere, receiver.url('/no-grant'), ['*']);

    const b = `${API}/boards/${board}`;
    const lane = (await t.request(key, 'POST', `${b}/lanes`, { name: 'L' })).json().data;
    const task = (await t.request(key, 'POST', `${b}/tasks`, { title: 'T', laneId: lane.id })).json().data;
    const comment = (
      await t.request(key, 'POST', `${b}/tasks/${task.id}/comments`, { body: 'Hi', authorName: 'Bot' })
    ).json().data;
    const assets = `${b}/tasks/${task.id}/assets`;
    const asset = (await upload(t, key, assets, [filePart('log.txt', 'hello', 'text/plain')])).json().data;
    expect((await t.request(key, 'DELETE', `${assets}/${asset.id}`)).statusCode).toBe(204);
    const reactions = `${b}/tasks/${task.id}/comments/${comment.id}/reactions`;
    expect((await t.request(key, 'PUT', `${reactions}/rocket`)).statusCode).toBe(201);
    expect((await t.request(key, 'PUT', `${reactions}/rocket`)).statusCode).toBe(200); // no second event
    expect((await t.request(key, 'DELETE', `${reactions}/rocket`)).statusCode).toBe(204);
    // The same changes from the web UI are recorded as activities but fire no webhook.
    const uiAsset = await t.services.assets.createAsset(PERSON, board, task.id, {
      filename: 'ui.txt',
      contentType: 'text/plain',
      content: await t.services.assets.stage(Readable.from([Buffer.from('ui')])),
    });
    await t.services.reactions.addReaction(PERSON, board, task.id, comment.id, 'eyes');
    const uiActivities = await t.db.database.kysely
      .selectFrom('all_activities')
      .select(['type', 'origin'])
      .where('board_id', '=', board)
      .where('origin', '=', 'ui')
      .orderBy('id')
      .execute();
    expect(uiActivities).toEqual([
      { type: 'asset.created', origin: 'ui' },
      { type: 'reaction.created', origin: 'ui' },
    ]);
    expect(uiAsset.source).toBe('user');

    const wanted = 3 + 4; // lane, task and comment, then the four new types
    const received = [...(await receiver.waitForDeliveries('/star', wanted)).values()].map(
      (r) => JSON.parse(r.body) as Payload,
    );
    // Deliveries go out side by side, so they may arrive in any order: compared by type (four distinct
    // types, listed below in that order).
    const ours = received
      .filter((p) => p.type.startsWith('asset.') || p.type.startsWith('reaction.'))
      .sort((a, b) => a.type.localeCompare(b.type));
    expect(ours).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'asset.created',
        timestamp: expect.any(String),
        actor,
        data: {
          board_id: board,
          task_id: task.id,
          asset: { id: asset.id, filename: 'log.txt', contentType: 'text/plain', size: 5 },
        },
      },
      {
        id: expect.stringMatching(/^evt_/),
        type: 'asset.deleted',
        timestamp: expect.any(String),
        actor,
        data: { board_id: board, task_id: task.id, asset_id: asset.id },
      },
      {
        id: expect.stringMatching(/^evt_/),
        type: 'reaction.created',
        timestamp: expect.any(String),
        actor,
        data: { board_id: board, task_id: task.id, comment_id: comment.id, content: 'rocket' },
      },
      {
        id: expect.stringMatching(/^evt_/),
        type: 'reaction.deleted',
        timestamp: expect.any(String),
        actor,
        data: { board_id: board, task_id: task.id, comment_id: comment.id, content: 'rocket' },
      },
    ]);
    await receiver.waitFor(1, (r) => r.path === '/listed');
    await t.whenIdle();
    expect(receiver.deliveries('/star').size).toBe(wanted);
    expect(
      [...receiver.deliveries('/listed').values()].map((r) => (JSON.parse(r.body) as Payload).type),
    ).toEqual(['comment.created']);
    expect(receiver.on('/paused')).toHaveLength(0);
    expect(receiver.on('/no-grant')).toHaveLength(0);
  });

  it('a webhook events list that names them is 400 validation_error', async () => {
    const { key } = await t.createKey('all');
    for (const type of ['asset.created', 'asset.deleted', 'reaction.created', 'reaction.deleted']) {
      const res = await t.request(key, 'POST', `${API}/webhooks`, {
        url: receiver.url('/x'),
        events: ['task.created', type],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
      expect(res.json().error.message).toContain('events[1]');
    }
    const hook = await t.createWebhook(key, receiver.url('/y'), ['task.created']);
    const patch = await t.request(key, 'PATCH', `${API}/webhooks/${hook.id}`, {
      events: ['reaction.created'],
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.message).toContain('events[0]');
  });
});
