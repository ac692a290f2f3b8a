// What the API benchmark's two baselines (baseline-server.mjs on SQLite, baseline-server-pg.mjs on
// PostgreSQL) do alike: find a request's key by its keyed hash, number and shape tasks as Laneboard's
// API does, and answer JSON.
import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The lookup hash of the bearer token in an Authorization header, as Laneboard keys it (HMAC-SHA256
 * with a key derived from the master key `master`), or null without a bearer token.
 */
export function bearerHasher(master) {
  const lookupKey = Buffer.from(hkdfSync('sha256', Buffer.from(master), 'laneboard', 'lookup-v1', 32));
  return (authorization) => {
    const token = /^bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    return token ? createHmac('sha256', lookupKey).update(token).digest('base64url') : null;
  };
}

/**
 * Positions as Laneboard computes them from the stored ranks: numbered while the list is read (rows of
 * whole lanes, in rank order).
 */
export function numberPositions(rows) {
  let lane = null;
  let next = 0;
  for (const row of rows) {
    if (row.lane_id !== lane) {
      lane = row.lane_id;
      next = 0;
    }
    row.position = next++;
  }
  return rows;
}

/** A task row as the API shows it. */
export function toTask(r) {
  return {
    id: r.id,
    shortId: r.short_id,
    title: r.title,
    laneId: r.lane_id,
    priority: r.priority,
    tags: JSON.parse(r.tags),
    archived: r.archived === 1,
    position: r.position,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
