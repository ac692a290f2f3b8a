import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api.js';
import { describeEachDialect } from '../support/dialects.js';
import { OPERATOR, useUiTestApp } from '../ui/ui-support.js';
import { created, externalApi } from './member-fixtures.js';

describeEachDialect('agents as members (Settings › Agents)', (dialect) => {
  const t = useUiTestApp(dialect);
  const ext = externalApi(t);

  describe('agents', () => {
    it('owners and admins create, list, rename, describe and read agents', async () => {
      const { browser: owner } = await t.person('owner');
      const { browser: admin } = await t.person('admin');
      const agent = await created(owner, '/api/ui/agents', { name: '  Claude runner  ' });
      expect(agent).toEqual({
        id: expect.stringMatching(/^agt_/),
        name: 'Claude runner',
        description: '',
        active: true,
        createdAt: expect.any(String),
        updatedAt: agent.createdAt,
      });
      const second = await created(admin, '/api/ui/agents', { name: 'Copilot', description: ' Reviews ' });
      expect(second.description).toBe('Reviews');

      const listed = (await admin.request('GET', '/api/ui/agents')).json().data as Array<{ id: string }>;
      expect(listed.map((a) => a.id)).toEqual(expect.arrayContaining([agent.id, second.id]));

      t.clock.advance(1000);
      const renamed = await admin.request('PATCH', `/api/ui/agents/${agent.id}`, {
        name: 'Claude',
        description: 'Works the backlog',
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().data).toMatchObject({ name: 'Claude', description: 'Works the backlog' });
      expect(renamed.json().data.updatedAt).not.toBe(agent.updatedAt);
      const read = await owner.request('GET', `/api/ui/agents/${agent.id}`);
      expect(read.json().data).toEqual(renamed.json().data);
    });

    it('rejects bad input with 400 naming the field and changes nothing', async () => {
      const { browser: owner } = await t.person('owner');
      const agent = await created(owner, '/api/ui/agents', { name: 'Steady' });
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', '/api/ui/agents', { name: 'x'.repeat(201) }, 'name'],
        ['POST', '/api/ui/agents', { name: '   ' }, 'name'],
        ['POST', '/api/ui/agents', {}, 'name'],
        ['POST', '/api/ui/agents', { name: 'A', description: 'd'.repeat(2001) }, 'description'],
        ['POST', '/api/ui/agents', { name: 'A', color: 'red' }, 'color'],
        ['PATCH', `/api/ui/agents/${agent.id}`, { name: 'x'.repeat(201) }, 'name'],
        ['PATCH', `/api/ui/agents/${agent.id}`, { name: '' }, 'name'],
        ['PATCH', `/api/ui/agents/${agent.id}`, { description: 7 }, 'description'],
      ];
      const before = (await owner.request('GET', '/api/ui/agents')).json().data;
      for (const [method, url, body, field] of cases) {
        expectError(await owner.request(method as 'POST', url, body), 400, 'validation_error', field);
      }
      expect((await owner.request('GET', '/api/ui/agents')).json().data).toEqual(before);
      expectError(await owner.request('GET', '/api/ui/agents/agt_missing'), 404, 'not_found');
      expectError(
        await owner.request('PATCH', '/api/ui/agents/agt_missing', { name: 'N' }),
        404,
        'not_found',
      );
      expectError(await owner.request('POST', '/api/ui/agents/agt_missing/deactivate'), 404, 'not_found');
    });

    it('members get 403 from every agent route, and nothing changes', async () => {
      const { browser: owner } = await t.person('owner');
      const { browser: member } = await t.person('member');
      const agent = await created(owner, '/api/ui/agents', { name: 'Guarded' });
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', '/api/ui/agents'],
        ['POST', '/api/ui/agents', { name: 'Mine' }],
        ['GET', `/api/ui/agents/${agent.id}`],
        ['PATCH', `/api/ui/agents/${agent.id}`, { name: 'Taken' }],
        ['POST', `/api/ui/agents/${agent.id}/deactivate`],
        ['GET', `/api/ui/agents/${agent.id}/keys`],
        ['POST', `/api/ui/agents/${agent.id}/keys`, { name: 'k', allBoards: true, grants: [] }],
      ];
      for (const [method, url, body] of attempts) {
        expectError(await member.request(method as 'GET', url, body), 403, 'forbidden');
      }
      expect((await owner.request('GET', `/api/ui/agents/${agent.id}`)).json().data).toEqual(agent);
      expect((await owner.request('GET', `/api/ui/agents/${agent.id}/keys`)).json().data).toEqual([]);
    });

    it('every person lists the active members (people and agents) for the picker', async () => {
      const { browser: owner } = await t.person('owner', 'Zed Owner');
      const { id: memberId, browser: member } = await t.person('member', 'Amy Member');
      const agent = await created(owner, '/api/ui/agents', { name: 'Bot Picker' });
      const retired = await created(owner, '/api/ui/agents', { name: 'Bot Retired' });
      await owner.request('POST', `/api/ui/agents/${retired.id}/deactivate`);
      const listed = (await member.request('GET', '/api/ui/members')).json().data as Array<{
        id: string;
        type: string;
        name: string;
      }>;
      expect(listed).toContainEqual({ id: agent.id, type: 'agent', name: 'Bot Picker' });
      expect(listed).toContainEqual({ id: memberId, type: 'person', name: 'Amy Member' });
      expect(listed.some((m) => m.id === retired.id)).toBe(false);
      const names = listed.map((m) => m.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    });

    it('keys of the external API cannot manage agents (domain rule)', async () => {
      const key = await t.services.apiKeys.createKey(OPERATOR, { name: 'k', allBoards: true, grants: [] });
      const actor = await t.services.apiKeys.authenticate(key.key);
      if (!actor) throw new Error('key not authenticated');
      await expect(t.services.agents.createAgent(actor, { name: 'X' })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(
        t.services.apiKeys.createKey(OPERATOR, {
          name: 'k',
          allBoards: true,
          grants: [],
          agentId: 'agt_nope',
        }),
      ).rejects.toMatchObject({ code: 'validation_error', message: expect.stringContaining('agentId') });
    });
  });

  describe("an agent's keys", () => {
    it('are made, listed and revealed on the agent page, and work on the external API', async () => {
      const { browser: owner } = await t.person('owner');
      const agent = await created(owner, '/api/ui/agents', { name: 'Keyed' });
      const key = await created(owner, `/api/ui/agents/${agent.id}/keys`, {
        name: 'runner',
        allBoards: true,
        grants: [],
      });
      expect(key).toMatchObject({ name: 'runner', owner: null, allBoards: true, key: expect.any(String) });
      const listed = (await owner.request('GET', `/api/ui/agents/${agent.id}/keys`)).json().data;
      expect(listed.map((k: { id: string }) => k.id)).toEqual([key.id]);
      const revealed = await owner.request('POST', `/api/ui/keys/${key.id}/reveal`, {
        password: 'correct horse battery',
      });
      expect(revealed.json().data).toEqual({ id: key.id, key: key.key });
      expect((await ext(key.key, 'GET', '/boards')).statusCode).toBe(200);

      // The operator (CLI) makes agents and their keys too.
      const cliAgent = await t.services.agents.createAgent(OPERATOR, { name: 'Nightly' });
      const cliKey = await t.services.apiKeys.createKey(OPERATOR, {
        name: 'nightly',
        allBoards: true,
        grants: [],
        agentId: cliAgent.id,
      });
      expect(cliKey.agentId).toBe(cliAgent.id);
    });

    it('bad key input is a 400 naming the field; an unknown agent is 404', async () => {
      const { browser: owner } = await t.person('owner');
      const agent = await created(owner, '/api/ui/agents', { name: 'Strict' });
      expectError(
        await owner.request('POST', `/api/ui/agents/${agent.id}/keys`, {
          name: '',
          allBoards: true,
          grants: [],
        }),
        400,
        'validation_error',
        'name',
      );
      expectError(
        await owner.request('POST', `/api/ui/agents/${agent.id}/keys`, {
          name: 'k',
          allBoards: false,
          grants: [],
        }),
        400,
        'validation_error',
        'grants',
      );
      expectError(
        await owner.request('POST', '/api/ui/agents/agt_missing/keys', {
          name: 'k',
          allBoards: true,
          grants: [],
        }),
        404,
        'not_found',
      );
      expect((await owner.request('GET', `/api/ui/agents/${agent.id}/keys`)).json().data).toEqual([]);
    });

    it('deactivating the agent revokes its keys and their webhooks; it can get no new key', async () => {
      const { browser: owner } = await t.person('owner');
      const agent = await created(owner, '/api/ui/agents', { name: 'Retired' });
      const key = await created(owner, `/api/ui/agents/${agent.id}/keys`, {
        name: 'runner',
        allBoards: true,
        grants: [],
      });
      await created(owner, '/api/ui/webhooks', {
        url: 'http://127.0.0.1:9/agent-hook',
        events: ['task.created'],
        apiKeyId: key.id,
      });
      expect((await ext(key.key, 'GET', '/boards')).statusCode).toBe(200);

      const deactivated = await owner.request('POST', `/api/ui/agents/${agent.id}/deactivate`);
      expect(deactivated.statusCode, deactivated.body).toBe(200);
      expect(deactivated.json().data).toMatchObject({ id: agent.id, active: false, keysRevoked: 1 });
      expectError(await ext(key.key, 'GET', '/boards'), 401, 'invalid_key');
      const hooks = (await owner.request('GET', '/api/ui/webhooks')).json().data as Array<{ url: string }>;
      expect(hooks.filter((h) => h.url === 'http://127.0.0.1:9/agent-hook')).toEqual([]);
      expect((await owner.request('GET', `/api/ui/agents/${agent.id}/keys`)).json().data).toEqual([]);
      expectError(
        await owner.request('POST', `/api/ui/agents/${agent.id}/keys`, {
          name: 'k',
          allBoards: true,
          grants: [],
        }),
        400,
        'validation_error',
        'agentId',
      );
      // Deactivating again is harmless.
      const again = await owner.request('POST', `/api/ui/agents/${agent.id}/deactivate`);
      expect(again.json().data).toMatchObject({ active: false, keysRevoked: 0 });
    });
  });
});
