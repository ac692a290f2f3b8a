import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import {
  cursorPosition,
  followedTask,
  inParallel,
  openEventStream,
  poll,
  received,
  type StreamEventBody,
} from './activity-stream-client.js';
import { useListeningUiApp } from './live-app.js';
import type { SseClient } from './sse-client.js';

const CHANGES = 1000;
/** Writers at once: on PostgreSQL, commits then finish out of id order, which the stream must absorb. */
const WRITERS = 8;

/**
 * 1 000 web UI changes, made by concurrent writers while two clients follow: one over server-sent events
 * that disconnects twice and resumes with Last-Event-ID, one by long polls of small pages. Each sees
 * every change exactly once, in the same (commit) order.
 */
describeEachDialect('activity stream resumption', (dialect) => {
  const t = useListeningUiApp(dialect);

  const ui = async (method: 'POST', url: string, body: unknown) => {
    const res = await t.ada.browser.request(method, `/api/ui${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: string };
  };

  it(`delivers ${CHANGES} changes across disconnects exactly once, in order (SSE and long poll)`, async () => {
    const { key, commentsUrl, start } = await followedTask(t, t.ada.browser);

    const made: string[] = [];
    let producing = true;
    const production = inParallel(CHANGES, WRITERS, async (i) => {
      const comment = await ui('POST', commentsUrl, { body: `c${i}` });
      made.push(comment.id);
    }).finally(() => {
      producing = false;
    });

    const followSse = async (): Promise<StreamEventBody[]> => {
      const seen: StreamEventBody[] = [];
      let cursor = start;
      for (let connection = 0; seen.length < CHANGES; connection++) {
        const stream: SseClient = await openEventStream(t.base, key.key, {}, { 'last-event-id': cursor });
        expect(stream.status).toBe(200);
        // The first two connections drop after a share of the changes; the last reads to the end.
        const until = connection < 2 ? (connection + 1) * (CHANGES / 3) : CHANGES;
        await waitUntil(
          `SSE connection ${connection} to reach ${until}`,
          async () => (seen.length + stream.events.length >= until ? true : undefined),
          120_000,
          20,
        );
        await stream.close();
        const events = received(stream);
        seen.push(...events);
        cursor = events[events.length - 1]?.cursor ?? cursor;
      }
      return seen;
    };

    const followPolls = async (): Promise<StreamEventBody[]> => {
      const seen: StreamEventBody[] = [];
      let cursor = start;
      for (let round = 0; seen.length < CHANGES; round++) {
        // Small, varying pages; each request is its own connection.
        const page = await poll(t.app, key.key, { after: cursor, wait: 5, limit: 17 + (round % 40) });
        expect(page.status).toBe(200);
        seen.push(...page.body.data);
        expect(page.body.cursor).toBe(page.body.data[page.body.data.length - 1]?.cursor ?? cursor);
        cursor = page.body.cursor;
        if (!producing && page.body.data.length === 0 && seen.length < CHANGES) {
          throw new Error(`long poll stalled at ${seen.length} of ${CHANGES}`);
        }
      }
      return seen;
    };

    const [sse, polled] = await Promise.all([followSse(), followPolls(), production]);
    for (const seen of [sse, polled]) {
      const comments = seen.map((e) => e.data.comment_id as string);
      expect(seen.every((e) => e.type === 'comment.created' && e.origin === 'ui')).toBe(true);
      expect(new Set(comments).size).toBe(CHANGES);
      expect([...comments].sort()).toEqual([...made].sort());
      const positions = seen.map((e) => cursorPosition(e.cursor));
      expect(positions.every((p, i) => i === 0 || p > (positions[i - 1] as number))).toBe(true);
    }
    expect(sse.map((e) => e.id)).toEqual(polled.map((e) => e.id));
    // Nothing more: the stream is drained exactly.
    const after = await poll(t.app, key.key, { after: sse[sse.length - 1]?.cursor as string });
    expect(after.body.data).toEqual([]);
  }, 300_000);
});
