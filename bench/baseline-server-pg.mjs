// The PostgreSQL baseline the API benchmark compares Laneboard on PostgreSQL against: a bare node:http
// handler on the same schema (DATABASE_URL, with its search_path) doing the same essential work as
// baseline-server.mjs — key lookup by keyed hash, grant check, a rate-limit counter, the query, JSON —
// with pg and none of the framework, validation or layering. Same pool size as Laneboard's (10).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { bearerHasher, numberPositions, send, toTask } from './support/baseline-http.mjs';

const port = Number(process.env.PORT);
const master = process.env.LANEBOARD_SECRET_KEY;
const keyHash = bearerHasher(master);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});

// Named statements: prepared once per connection, as a careful hand-written handler would.
const q = (name, text) => (client, values) => client.query({ name, text, values });
const keyByHash = q('key', 'select id, all_boards from api_keys where key_hash = $1 and revoked_at is null');
const grant = q('grant', 'select permission from api_key_grants where api_key_id = $1 and board_id = $2');
// Positions as Laneboard computes them from the stored ranks: numbered while the list is read
// (numberPositions), counted in the detail.
const listTasks = q(
  'list',
  `select t.id, t.short_id, t.title, t.lane_id, t.priority, t.tags, t.archived, t.created_at, t.updated_at
   from tasks t join lanes l on l.id = t.lane_id where t.board_id = $1 and t.archived = 0
   order by l.position, t.rank, t.id`,
);
const taskDetail = q(
  'detail',
  `select *, case when t.archived = 0 then (select cast(count(*) as integer) from tasks e
     where e.lane_id = t.lane_id and e.archived = 0 and (e.rank, e.id) < (t.rank, t.id)) end as position
   from tasks t where id = $1 and board_id = $2`,
);
// An append takes no lane lock, as Laneboard's: the lane check, the position (a count) and the rank (from
// the sequence) in one statement, then the insert.
const appendSlot = q(
  'slot',
  `select (select cast(count(*) as integer) from tasks where lane_id = lanes.id and archived = 0) as position,
     nextval('tasks_rank_seq') as rank
   from lanes where id = $1 and board_id = $2`,
);
const insertTask = q(
  'insert',
  `insert into tasks (id, board_id, lane_id, short_id, title, description, priority, tags, archived, rank, created_at, updated_at)
   values ($1, $2, $3, $4, $5, '', 0, '[]', 0, $6, $7, $7)`,
);
const counters = new Map();

function readBody(req) {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => resolve(JSON.parse(raw)));
  });
}

async function handle(req, res) {
  const hash = keyHash(req.headers.authorization);
  // The body first, before a pooled connection is taken: a client that goes away mid-body (as the load
  // generator's connections do when a run ends) must not keep a connection of the pool forever.
  const body = req.method === 'POST' ? await readBody(req) : null;
  const client = await pool.connect();
  try {
    const key = hash && (await keyByHash(client, [hash])).rows[0];
    if (!key) return send(res, 401, { error: { code: 'invalid_key', message: 'no' } });
    const count = (counters.get(key.id) ?? 0) + 1;
    counters.set(key.id, count);
    res.setHeader('x-ratelimit-remaining', String(1e9 - count));
    const match = /^\/api\/ext\/v1\/boards\/([^/]+)\/tasks(?:\/([^/?]+))?/.exec(req.url);
    if (!match) return send(res, 404, { error: { code: 'not_found', message: 'no' } });
    const [, boardId, taskId] = match;
    const permission = key.all_boards ? 'edit' : (await grant(client, [key.id, boardId])).rows[0]?.permission;
    if (!permission) return send(res, 403, { error: { code: 'forbidden', message: 'no' } });
    if (req.method === 'GET' && !taskId)
      return send(res, 200, { data: numberPositions((await listTasks(client, [boardId])).rows).map(toTask) });
    if (req.method === 'GET') {
      const row = (await taskDetail(client, [taskId, boardId])).rows[0];
      if (!row) return send(res, 404, { error: { code: 'not_found', message: 'no' } });
      return send(res, 200, {
        data: { ...toTask(row), description: row.description, lastTurnAt: row.last_turn_at },
      });
    }
    const now = new Date().toISOString();
    const id = `task_${randomBytes(16).toString('base64url')}`;
    await client.query('begin');
    try {
      const slot = (await appendSlot(client, [body.laneId, boardId])).rows[0];
      if (!slot) {
        await client.query('rollback');
        return send(res, 400, { error: { code: 'validation_error', message: 'laneId' } });
      }
      const shortId = randomBytes(6).toString('hex');
      await insertTask(client, [id, boardId, body.laneId, shortId, body.title, slot.rank, now]);
      const { position } = slot;
      await client.query('commit');
      send(res, 201, { data: { id, title: body.title, laneId: body.laneId, position } });
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  } finally {
    client.release();
  }
}

http
  .createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: { code: 'internal', message: 'no' } }));
  })
  .listen(port, '127.0.0.1');
