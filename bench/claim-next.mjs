// claim-next latency under contention: each round creates 20 tasks in a lane, then fires 50 concurrent
// claim-next calls (5 agents, half of them moving the task to another lane) and checks that exactly 20
// succeed with 20 different tasks and 30 answer 204. Reports p50/p99 of each call's latency over all
// rounds. In process through app.inject (no sockets): the claim's own cost and its waiting on others.
// On PostgreSQL two app instances (each its own runtime and pool) share the schema, the calls
// alternating between them, as two servers behind a load balancer would.
//
//   npx tsc -p tsconfig.build.json && node bench/claim-next.mjs               SQLite
//   BENCH_DATABASE_URL=postgres://... node bench/claim-next.mjs               PostgreSQL (a throwaway schema)
//   BENCH_ROUNDS=20 BENCH_TASKS=20 BENCH_CALLS=50                             defaults
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { buildApp } from '../dist/app.js';
import { CLI_OPERATOR } from '../dist/domain/actor.js';
import { createRuntime } from '../dist/runtime.js';
import { benchDatabase, NO_RATE_LIMIT as rateLimit } from './support/bench-database.mjs';
import { percentile } from './support/stats.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const taskCount = Number(process.env.BENCH_TASKS ?? 20);
const calls = Number(process.env.BENCH_CALLS ?? 50);
const bench = await benchDatabase('claim');
const { databaseUrl, config } = bench;
const log = pino({ level: 'silent' });

async function instance(migrations) {
  const runtime = await createRuntime(config, { migrations, log });
  const app = await buildApp({ database: runtime.database, services: runtime.services, rateLimit });
  await app.ready();
  return { runtime, app };
}

const first = await instance('apply');
const instances = databaseUrl ? [first, await instance('require')] : [first];
const services = first.runtime.services;

const cli = await services.apiKeys.createKey(CLI_OPERATOR, { name: 'bench', allBoards: true, grants: [] });
const agents = [];
for (let i = 0; i < 5; i++) {
  const agent = await services.agents.createAgent(CLI_OPERATOR, { name: `Runner ${i}` });
  const key = await services.apiKeys.createKey(CLI_OPERATOR, {
    name: `runner ${i}`,
    allBoards: true,
    grants: [],
    agentId: agent.id,
  });
  agents.push(key.key);
}

const call = (app, key, method, url, payload) =>
  app.inject({ method, url: `/api/ext/v1${url}`, headers: { authorization: `Bearer ${key}` }, payload });
const boardId = (await call(first.app, cli.key, 'POST', '/boards', { name: 'Claims' })).json().data.id;
const doing = (await call(first.app, cli.key, 'POST', `/boards/${boardId}/lanes`, { name: 'Doing' })).json()
  .data.id;

const latencies = { won: [], none: [] };
for (let round = 0; round < rounds; round++) {
  const todo = (
    await call(first.app, cli.key, 'POST', `/boards/${boardId}/lanes`, { name: `Todo ${round}` })
  ).json().data.id;
  for (let i = 0; i < taskCount; i++) {
    await call(first.app, cli.key, 'POST', `/boards/${boardId}/tasks`, {
      title: `T${round}.${i}`,
      laneId: todo,
    });
  }
  const results = await Promise.all(
    Array.from({ length: calls }, async (_, i) => {
      const { app } = instances[i % instances.length];
      const body = i % 2 === 0 ? { laneId: todo } : { laneId: todo, moveToLaneId: doing };
      const started = performance.now();
      const res = await call(app, agents[i % agents.length], 'POST', `/boards/${boardId}/claim-next`, body);
      const ms = performance.now() - started;
      return {
        status: res.statusCode,
        ms,
        id: res.statusCode === 200 ? res.json().data.id : null,
        body: res.body,
      };
    }).map((p) => p.catch((error) => ({ status: 0, ms: 0, error }))),
  );
  const won = results.filter((r) => r.status === 200);
  const none = results.filter((r) => r.status === 204);
  if (
    won.length !== taskCount ||
    none.length !== calls - taskCount ||
    new Set(won.map((r) => r.id)).size !== taskCount
  ) {
    console.error(
      'round',
      round,
      results.filter((r) => r.status !== 200 && r.status !== 204),
    );
    throw new Error(`round ${round}: ${won.length} x 200, ${none.length} x 204`);
  }
  latencies.won.push(...won.map((r) => r.ms));
  latencies.none.push(...none.map((r) => r.ms));
}

const row = (name, values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${name.padEnd(10)} n=${String(values.length).padStart(5)}  p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms`;
};
console.log(
  `claim-next, ${databaseUrl ? 'PostgreSQL, 2 instances' : 'SQLite, 1 instance'}: ${rounds} rounds of ${calls} concurrent calls over ${taskCount} tasks (every round: exactly ${taskCount} x 200, distinct tasks)`,
);
console.log(row('200', latencies.won));
console.log(row('204', latencies.none));
console.log(row('all', [...latencies.won, ...latencies.none]));

for (const { app, runtime } of instances.reverse()) {
  await app.close();
  await runtime.close();
}
await bench.drop();
