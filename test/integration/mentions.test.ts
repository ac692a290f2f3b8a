import { expect, it } from 'vitest';
import { EVENT_PAYLOADS } from '../../src/schemas/events.js';
import { bodyAjv } from '../../src/schemas/validation.js';
import { describeEachDialect } from '../support/dialects.js';
import { OPERATOR, useUiTestApp } from '../ui/ui-support.js';

const EXT = '/api/ext/v1';

describeEachDialect('mentions in comments', (dialect) => {
  const t = useUiTestApp(dialect);

  const ext = (key: string, url: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `${EXT}${url}`,
      headers: { authorization: `Bearer ${key}` },
      payload: body as object,
    });

  it('comment.created names the active people and agents mentioned, not code, e-mail or the deactivated', async () => {
    const claude = await t.services.agents.createAgent(OPERATOR, { name: 'Claude' });
    const old = await t.services.agents.createAgent(OPERATOR, { name: 'Old Bot' });
    await t.services.agents.deactivateAgent(OPERATOR, old.id);
    const grace = await t.person('member', 'Grace Hopper');
    const key = await t.services.apiKeys.createKey(OPERATOR, { name: 'ci', allBoards: true, grants: [] });
    await t.services.webhooks.createWebhook(OPERATOR, {
      url: 'http://127.0.0.1:9/hook',
      events: ['comment.created'],
      apiKeyId: key.id,
    });
    const boardId = (await ext(key.key, '/boards', { name: 'Mentions' })).json().data.id;
    const laneId = (await ext(key.key, `/boards/${boardId}/lanes`, { name: 'Todo' })).json().data.id;
    const taskId = (await ext(key.key, `/boards/${boardId}/tasks`, { title: 'T', laneId })).json().data.id;
    const comment = async (body: string) => {
      const res = await ext(key.key, `/boards/${boardId}/tasks/${taskId}/comments`, {
        body,
        authorName: 'CI',
      });
      expect(res.statusCode, res.body).toBe(201);
      const row = await t.db.database.kysely
        .selectFrom('webhook_events')
        .select('payload')
        .where('type', '=', 'comment.created')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const payload = JSON.parse(row.payload);
      expect(bodyAjv.validate(EVENT_PAYLOADS['comment.created'], payload), JSON.stringify(payload)).toBe(
        true,
      );
      expect(payload.data.comment_id).toBe(res.json().data.id);
      return payload.data.mentions;
    };
    expect(await comment('@grace hopper and @Claude: see `@Old Bot`, mail grace@claude.example')).toEqual([
      { id: grace.id, type: 'person', name: 'Grace Hopper' },
      { id: claude.id, type: 'agent', name: 'Claude' },
    ]);
    expect(await comment('@Old Bot is gone; @Claudette is nobody')).toEqual([]);
    expect(await comment('no mention at all')).toEqual([]);
  });
});
