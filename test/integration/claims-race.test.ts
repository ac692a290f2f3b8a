import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import type { Runtime } from '../../src/runtime.js';
import { openSecondConnection } from '../support/database.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { testRuntime } from '../support/runtime.js';

const EXT = '/api/ext/v1';
const TASKS = 20;
const CALLS = 50;
const AGENTS = 5;

/*
 * No task is ever handed to two callers: 50 concurrent claim-next calls over 20 tasks give exactly 20
 * successes with 20 different tasks and 30 × 204 — on one SQLite server, and on two app instances
 * (each its own runtime and pool) sharing one PostgreSQL schema. Half the calls also move the task,
 * which takes the lane locks; the other half take the skip-locked path.
 */
describeEachDialect('claim-next under contention', (dialect) => {
  const t = useTestApp(dialect);
  let second: { app: FastifyInstance; runtime: Runtime; database: Database } | null = null;

  beforeAll(async () => {
    if (dialect !== 'postgres') return;
    const database = openSecondConnection(t.db, 5);
    const runtime = await testRuntime(database);
    const app = await buildApp({
      database,
      services: runtime.services,
      rateLimit: { max: 1_000_000, windowMs: 60_000 },
    });
    await app.ready();
    second = { app, runtime, database };
  });
  afterAll(async () => {
    if (!second) return;
    await second.app.close();
    await second.runtime.close();
  });

  it(`hands each of ${TASKS} tasks to exactly one of ${CALLS} racing callers`, async () => {
    const { key: cli } = await t.createKey('all', 'set-up');
    const post = (app: FastifyInstance, key: string, url: string, payload: object) =>
      app.inject({
        method: 'POST',
        url: `${EXT}${url}`,
        headers: { authorization: `Bearer ${key}` },
        payload,
      });
    const boardId = (await post(t.app, cli, '/boards', { name: 'Race' })).json().data.id;
    const todo = (await post(t.app, cli, `/boards/${boardId}/lanes`, { name: 'Todo' })).json().data.id;
    const doing = (await post(t.app, cli, `/boards/${boardId}/lanes`, { name: 'Doing' })).json().data.id;
    for (let i = 0; i < TASKS; i++) {
      expect(
        (await post(t.app, cli, `/boards/${boardId}/tasks`, { title: `T${i}`, laneId: todo })).statusCode,
      ).toBe(201);
    }
    const agents: Array<{ id: string; key: string }> = [];
    for (let i = 0; i < AGENTS; i++) {
      const agent = await t.services.agents.createAgent(OPERATOR, { name: `Runner ${i}` });
      const key = await t.services.apiKeys.createKey(OPERATOR, {
        name: `runner ${i}`,
        allBoards: true,
        grants: [],
        agentId: agent.id,
      });
      agents.push({ id: agent.id, key: key.key });
    }
    const apps = second ? [t.app, second.app] : [t.app];

    const results = await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const caller = agents[i % AGENTS] as { id: string; key: string };
        const app = apps[i % apps.length] as FastifyInstance;
        const body = i % 2 === 0 ? { laneId: todo } : { laneId: todo, moveToLaneId: doing };
        const res = await post(app, caller.key, `/boards/${boardId}/claim-next`, body);
        return { caller: caller.id, status: res.statusCode, body: res.body };
      }),
    );

    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 200).length,
      JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 204)),
    ).toBe(TASKS);
    expect(statuses.filter((s) => s === 204).length).toBe(CALLS - TASKS);
    const won = results
      .filter((r) => r.status === 200)
      .map((r) => ({ caller: r.caller, task: JSON.parse(r.body).data }));
    expect(new Set(won.map((w) => w.task.id)).size).toBe(TASKS);
    for (const { caller, task } of won) {
      expect(task.assignees.map((a: { id: string }) => a.id)).toEqual([caller]);
    }

    // The database agrees: one assignee row per task, every count exactly 1, dense positions in both lanes.
    const db = t.db.database.kysely;
    const rows = await db
      .selectFrom('task_assignees')
      .select(['task_id', 'member_id'])
      .where('board_id', '=', boardId)
      .execute();
    expect(rows.length).toBe(TASKS);
    const counts = await db
      .selectFrom('tasks')
      .select('assignee_count')
      .where('board_id', '=', boardId)
      .execute();
    expect(counts.map((c) => c.assignee_count)).toEqual(Array(TASKS).fill(1));
    const list = (await t.request(cli, 'GET', `${EXT}/boards/${boardId}/tasks`)).json().data as Array<{
      laneId: string;
      position: number;
    }>;
    for (const lane of [todo, doing]) {
      const positions = list.filter((task) => task.laneId === lane).map((task) => task.position);
      expect(positions).toEqual(positions.map((_, i) => i));
    }
    expect(list.filter((task) => task.laneId === doing).length).toBe(
      won.filter((w) => w.task.laneId === doing).length,
    );
  });
});
