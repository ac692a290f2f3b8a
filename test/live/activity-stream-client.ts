import type { FastifyInstance } from 'fastify';
import { type Browser, OPERATOR, type UiTestApp } from '../ui/ui-support.js';
import { SseClient } from './sse-client.js';

export const EVENTS = '/api/ext/v1/events';

/** One event of the activity stream as a client receives it. */
export interface StreamEventBody {
  id: string;
  type: string;
  timestamp: string;
  actor: { type: string; id: string | null; name: string; person?: { id: string; name: string } };
  origin: string;
  cursor: string;
  data: Record<string, unknown> & { board_id: string };
}

/** The activity id behind a cursor, for checking order (clients treat cursors as opaque). */
export function cursorPosition(cursor: string): number {
  const match = /^a1:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new Error(`not a cursor: ${cursor}`);
  return Number(match[1]);
}

/** One long poll through HTTP (`inject`): status and, on 200, the page. */
export async function poll(
  app: FastifyInstance,
  key: string,
  query: Record<string, string | number> = {},
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  body: { data: StreamEventBody[]; cursor: string } & { error?: { code: string; message: string } };
}> {
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const res = await app.inject({
    method: 'GET',
    url: `${EVENTS}${search ? `?${search}` : ''}`,
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...headers },
  });
  return { status: res.statusCode, body: res.json() };
}

/** Opens the server-sent event form on a listening server. */
export function openEventStream(
  base: string,
  key: string,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const search = new URLSearchParams(query).toString();
  return SseClient.open(`${base}${EVENTS}${search ? `?${search}` : ''}`, {
    authorization: `Bearer ${key}`,
    accept: 'text/event-stream',
    ...headers,
  });
}

/** The parsed events a stream has received so far. */
export function received(stream: SseClient): StreamEventBody[] {
  return stream.events.map((e) => JSON.parse(e.data) as StreamEventBody);
}

/** Runs `work` for 0..n-1 with at most `concurrency` at a time. */
export async function inParallel(
  n: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        await work(i);
      }
    }),
  );
}

/**
 * What the ordering tests write to and follow: `key`, an integration's key to all boards; `commentsUrl`, the
 * path (under /api/ui or /api/ext/v1) of the comments of a task on a new board, made by `browser`'s
 * person; `start`, the stream's cursor before any of them.
 */
export async function followedTask(t: UiTestApp, browser: Browser) {
  const key = await t.services.apiKeys.createKey(OPERATOR, { name: 'Follower', allBoards: true, grants: [] });
  const ui = async (url: string, body: unknown) => {
    const res = await browser.request('POST', `/api/ui${url}`, body);
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: string };
  };
  const board = await ui('/boards', { name: 'Busy' });
  const lane = await ui(`/boards/${board.id}/lanes`, { name: 'Todo' });
  const task = await ui(`/boards/${board.id}/tasks`, { title: 'Chatty', laneId: lane.id });
  const start = (await poll(t.app, key.key)).body.cursor;
  return { key, commentsUrl: `/boards/${board.id}/tasks/${task.id}/comments`, start };
}
