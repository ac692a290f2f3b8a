// The baseline the API benchmark compares Laneboard against: a bare node:http handler on the same SQLite
// database doing the same essential work (key lookup by keyed hash, grant check, a rate-limit counter,
// the query, JSON) with none of the framework, validation or layering.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { bearerHasher, numberPositions, send, toTask } from './support/baseline-http.mjs';

const dataDir = process.env.LANEBOARD_DATA_DIR;
const port = Number(process.env.PORT);
const master = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim();
const keyHash = bearerHasher(master);
const db = new Database(path.join(dataDir, 'laneboard.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
// As Laneboard does: the Laneboard server on the same file writes too (its checkpoints; its dispatcher's
// claims once a webhook exists); without a busy timeout a baseline write then fails with SQLITE_BUSY.
db.pragma('busy_timeout = 5000');

const keyByHash = db.prepare('select id, all_boards from api_keys where key_hash = ? and revoked_at is null');
const grant = db.prepare('select permission from api_key_grants where api_key_id = ? and board_id = ?');
// Positions as Laneboard computes them from the stored ranks: numbered while the list is read
// (numberPositions), counted in the detail.
const listTasks = db.prepare(
  `select t.id, t.short_id, t.title, t.lane_id, t.priority, t.tags, t.archived, t.created_at, t.updated_at
   from tasks t join lanes l on l.id = t.lane_id where t.board_id = ? and t.archived = 0
   order by l.position, t.rank, t.id`,
);
const taskDetail = db.prepare(
  `select *, case when t.archived = 0 then (select count(*) from tasks e
     where e.lane_id = t.lane_id and e.archived = 0 and (e.rank, e.id) < (t.rank, t.id)) end as position
   from tasks t where id = ? and board_id = ?`,
);
// As Laneboard does on SQLite: the lane check and the rank (the lane's last + 1) in one statement, the
// position from a count of the lane's active tasks kept in memory (counted once, then counted up by this
// process's appends, and forgotten when another connection commits: Laneboard writes the same file).
const appendSlot = db.prepare(
  `select coalesce((select max(rank) from tasks where lane_id = lanes.id and archived = 0), 0) + 1 as rank
   from lanes where id = ? and board_id = ?`,
);
const countLane = db.prepare('select count(*) from tasks where lane_id = ? and archived = 0').pluck();
const dataVersion = db.prepare('pragma data_version').pluck();
const laneCounts = new Map();
let countsVersion = null;
function activeCount(laneId) {
  const version = dataVersion.get();
  if (version !== countsVersion) {
    laneCounts.clear();
    countsVersion = version;
  }
  let count = laneCounts.get(laneId);
  if (count === undefined) {
    count = countLane.get(laneId);
    laneCounts.set(laneId, count);
  }
  return count;
}
const insertTask = db.prepare(
  `insert into tasks (id, board_id, lane_id, short_id, title, description, priority, tags, archived, rank, created_at, updated_at)
   values (?, ?, ?, ?, ?, '', 0, '[]', 0, ?, ?, ?)`,
);
const counters = new Map();

/** The request's answer as [status, body]; sets the rate-limit header through `setHeader`. */
function answer(method, boardId, taskId, authorization, body, setHeader) {
  const hash = keyHash(authorization);
  const key = hash && keyByHash.get(hash);
  if (!key) return [401, { error: { code: 'invalid_key', message: 'no' } }];
  const count = (counters.get(key.id) ?? 0) + 1;
  counters.set(key.id, count);
  setHeader('x-ratelimit-remaining', String(1e9 - count));
  const permission = key.all_boards ? 'edit' : grant.get(key.id, boardId)?.permission;
  if (!permission) return [403, { error: { code: 'forbidden', message: 'no' } }];
  if (method === 'GET' && !taskId)
    return [200, { data: numberPositions(listTasks.all(boardId)).map(toTask) }];
  if (method === 'GET') {
    const row = taskDetail.get(taskId, boardId);
    if (!row) return [404, { error: { code: 'not_found', message: 'no' } }];
    return [200, { data: { ...toTask(row), description: row.description, lastTurnAt: row.last_turn_at } }];
  }
  const now = new Date().toISOString();
  const id = `task_${randomBytes(16).toString('base64url')}`;
  // IMMEDIATE: a deferred transaction that reads first cannot wait its turn to write (SQLITE_BUSY).
  const created = db
    .transaction(() => {
      const slot = appendSlot.get(body.laneId, boardId);
      if (!slot) return null;
      const position = activeCount(body.laneId);
      insertTask.run(
        id,
        boardId,
        body.laneId,
        // 48 random bits: a bench run creates tens of thousands of tasks, and a 32-bit id collided.
        randomBytes(6).toString('hex'),
        body.title,
        slot.rank,
        now,
        now,
      );
      laneCounts.set(body.laneId, position + 1);
      return position;
    })
    .immediate();
  if (created === null) return [400, { error: { code: 'validation_error', message: 'laneId' } }];
  return [201, { data: { id, title: body.title, laneId: body.laneId, position: created } }];
}

// Exits normally when the benchmark stops it, so that a `--cpu-prof` profile is written.
process.on('SIGTERM', () => process.exit(0));

const TASKS_PATH = /^\/api\/ext\/v1\/boards\/([^/]+)\/tasks(?:\/([^/?]+))?/;

if (process.env.BASELINE_HTTP === 'fastify') {
  // The same handler behind a bare Fastify app (routes with parameters, its JSON body parser and
  // default serialisation; no hooks, schemas or logger): what the framework alone costs, the floor
  // of any Fastify server doing this work (`BENCH_FLOOR=fastify node bench/api-bench.mjs`).
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  const route = (request, reply) => {
    const { boardId, taskId } = request.params;
    const [status, payload] = answer(
      request.method,
      boardId,
      taskId,
      request.headers.authorization,
      request.body,
      (name, value) => reply.header(name, value),
    );
    reply.code(status).send(payload);
  };
  app.get('/api/ext/v1/boards/:boardId/tasks', route);
  app.get('/api/ext/v1/boards/:boardId/tasks/:taskId', route);
  app.post('/api/ext/v1/boards/:boardId/tasks', route);
  await app.listen({ port, host: '127.0.0.1' });
} else {
  http
    .createServer((req, res) => {
      const match = TASKS_PATH.exec(req.url);
      if (!match) return send(res, 404, { error: { code: 'not_found', message: 'no' } });
      const [, boardId, taskId] = match;
      const reply = (body) => {
        const [status, payload] = answer(
          req.method,
          boardId,
          taskId,
          req.headers.authorization,
          body,
          (n, v) => res.setHeader(n, v),
        );
        send(res, status, payload);
      };
      if (req.method !== 'POST') return reply(undefined);
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => reply(JSON.parse(raw)));
    })
    .listen(port, '127.0.0.1');
}
