import { describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../support/database.js';
import { expectOneLineError, onPostgres, useCliDataDir } from './cli-fixtures.js';
import { laneboard } from './run-cli.js';

interface AgentJson {
  id: string;
  name: string;
  description: string;
  active: boolean;
}

describe('laneboard agents (embedded SQLite)', () => {
  const { cli, api } = useCliDataDir('laneboard-cli-agents-');

  it('agents list says there are none yet, and --json prints []', async () => {
    expect(await cli('agents', 'list')).toMatchObject({ code: 0, stderr: '' });
    expect((await cli('agents', 'list')).stdout).toContain('No agents yet');
    expect(await cli('agents', 'list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('creates an agent, lists it, gives it a key that acts as the agent, and deactivation revokes the key', async () => {
    const created = await cli(
      'agents',
      'create',
      '--name',
      'Reviewer',
      '--description',
      'Reviews PRs',
      '--json',
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    const agent = JSON.parse(created.stdout) as AgentJson;
    expect(agent).toEqual({
      id: expect.stringMatching(/^agt_/),
      name: 'Reviewer',
      description: 'Reviews PRs',
      active: true,
    });

    const listed = await cli('agents', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toContainEqual(agent);
    expect((await cli('agents', 'list')).stdout).toContain(`${agent.id}\tReviewer\tactive`);

    const keyResult = await cli(
      'keys',
      'create',
      '--agent',
      agent.id,
      '--name',
      'reviewer key',
      '--all-boards',
      '--json',
    );
    expect(keyResult).toMatchObject({ code: 0, stderr: '' });
    const key = JSON.parse(keyResult.stdout) as { id: string; key: string; agentId: string };
    expect(key.agentId).toBe(agent.id);

    // Through the API the key acts as the agent: a claim assigns the agent by name.
    const board = (await api(key.key, 'POST', '/boards', { name: 'Agents board' })).json().data as {
      id: string;
    };
    const lane = (await api(key.key, 'POST', `/boards/${board.id}/lanes`, { name: 'To do' })).json().data as {
      id: string;
    };
    const task = (
      await api(key.key, 'POST', `/boards/${board.id}/tasks`, { title: 'Review', laneId: lane.id })
    ).json().data as { id: string };
    const claimed = await api(key.key, 'POST', `/boards/${board.id}/tasks/${task.id}/claim`);
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json().data.assignees).toEqual([{ id: agent.id, type: 'agent', name: 'Reviewer' }]);

    const deactivated = await cli('agents', 'deactivate', agent.id);
    expect(deactivated).toEqual({
      code: 0,
      stdout: `Deactivated ${agent.id} (Reviewer); 1 key(s) revoked.\n`,
      stderr: '',
    });
    expect((await api(key.key, 'GET', '/boards')).statusCode).toBe(401);
    expect(JSON.parse((await cli('agents', 'list', '--json')).stdout)).toContainEqual({
      ...agent,
      active: false,
    });

    // An inactive agent gets no new key.
    const refused = await cli('keys', 'create', '--agent', agent.id, '--name', 'again', '--all-boards');
    expectOneLineError(refused, 2, /agentId.*active agent/);
  });

  it('plain output of create names the id and how to give the agent a key', async () => {
    const created = await cli('agents', 'create', '--name', 'Plain');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /^Created agt_\S+ \(Plain\)\.\nGive it a key with: laneboard keys create --agent agt_/,
    );
  });

  it('a name over 200 characters is a one-line usage error (exit 2); nothing is created', async () => {
    const before = JSON.parse((await cli('agents', 'list', '--json')).stdout) as AgentJson[];
    expectOneLineError(await cli('agents', 'create', '--name', 'x'.repeat(201)), 2, /name/);
    expectOneLineError(await cli('agents', 'create'), 2, /--name/);
    expect(JSON.parse((await cli('agents', 'list', '--json')).stdout)).toHaveLength(before.length);
  });

  it('deactivating a missing id fails with exit 1; no id at all is a usage error (exit 2)', async () => {
    expectOneLineError(await cli('agents', 'deactivate', 'agt_missing'), 1, /not found/i);
    expectOneLineError(await cli('agents', 'deactivate'), 2, /missing required argument/);
  });

  it('keys create --agent with an unknown agent is a one-line error; no key is made', async () => {
    const before = JSON.parse((await cli('keys', 'list', '--json')).stdout) as unknown[];
    const result = await cli('keys', 'create', '--agent', 'agt_nobody', '--name', 'x', '--all-boards');
    expectOneLineError(result, 2, /agentId.*active agent/);
    expect(JSON.parse((await cli('keys', 'list', '--json')).stdout)).toHaveLength(before.length);
  });
});

describe.skipIf(TEST_DATABASE_URL === null)('laneboard agents (PostgreSQL)', () => {
  it('creates, lists and deactivates an agent with a key in the database DATABASE_URL names', async () => {
    await onPostgres(async (env, db) => {
      const created = await laneboard(['agents', 'create', '--name', 'PG agent', '--json'], env);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      const agent = JSON.parse(created.stdout) as AgentJson;
      const key = await laneboard(
        ['keys', 'create', '--agent', agent.id, '--name', 'k', '--all-boards', '--json'],
        env,
      );
      expect(key.code).toBe(0);
      const stored = await db.database.kysely
        .selectFrom('api_keys')
        .select(['agent_id'])
        .executeTakeFirstOrThrow();
      expect(stored.agent_id).toBe(agent.id);
      expect(await laneboard(['agents', 'deactivate', agent.id, '--json'], env)).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ ...agent, active: false, keysRevoked: 1 })}\n`,
        stderr: '',
      });
      expect(JSON.parse((await laneboard(['agents', 'list', '--json'], env)).stdout)).toEqual([
        { ...agent, active: false },
      ]);
      expectOneLineError(await laneboard(['agents', 'deactivate', 'agt_missing'], env), 1, /not found/i);
    });
  });
});
