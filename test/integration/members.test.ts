import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { OPERATOR, useUiTestApp } from '../ui/ui-support.js';

const EXT = '/api/ext/v1';

describeEachDialect('members and the calling key', (dialect) => {
  const t = useUiTestApp(dialect);

  const get = (key: string | null, url: string) =>
    t.app.inject({
      method: 'GET',
      url: `${EXT}${url}`,
      ...(key === null ? {} : { headers: { authorization: `Bearer ${key}` } }),
    });

  it('lists active people and agents by name, filtered by part of the name; deactivated ones are gone', async () => {
    const cli = await t.services.apiKeys.createKey(OPERATOR, { name: 'cli', allBoards: true, grants: [] });
    const claude = await t.services.agents.createAgent(OPERATOR, { name: 'Claude Runner' });
    const retired = await t.services.agents.createAgent(OPERATOR, { name: 'Retired Runner' });
    await t.services.agents.deactivateAgent(OPERATOR, retired.id);
    const grace = await t.person('member', 'Grace Runner');

    const all = await get(cli.key, '/members');
    expect(all.statusCode, all.body).toBe(200);
    const members = all.json().data as Array<{ id: string; type: string; name: string }>;
    expect(members).toEqual(
      expect.arrayContaining([
        { id: claude.id, type: 'agent', name: 'Claude Runner' },
        { id: grace.id, type: 'person', name: 'Grace Runner' },
      ]),
    );
    expect(members.map((m) => m.id)).not.toContain(retired.id);
    expect(Object.keys(members[0] ?? {}).sort()).toEqual(['id', 'name', 'type']);

    const runners = (await get(cli.key, '/members?name=RUNNER')).json().data;
    expect(runners.map((m: { name: string }) => m.name).sort()).toEqual(['Claude Runner', 'Grace Runner']);
    const tooLong = await get(cli.key, `/members?name=${'x'.repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('validation_error');
    expect((await get(null, '/members')).statusCode).toBe(401);
  });

  it('says who the key is: an agent key is the agent, a CLI key is nobody', async () => {
    const agent = await t.services.agents.createAgent(OPERATOR, { name: 'Copilot' });
    const agentKey = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'copilot key',
      allBoards: true,
      grants: [],
      agentId: agent.id,
    });
    const mine = await get(agentKey.key, '/me');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data).toEqual({
      key: { id: agentKey.id, name: 'copilot key' },
      member: { id: agent.id, type: 'agent', name: 'Copilot' },
    });
    const cli = await t.services.apiKeys.createKey(OPERATOR, { name: 'nobody', allBoards: true, grants: [] });
    expect((await get(cli.key, '/me')).json().data).toEqual({
      key: { id: cli.id, name: 'nobody' },
      member: null,
    });
    expect((await get('ak_wrong', '/me')).statusCode).toBe(401);
  });
});
