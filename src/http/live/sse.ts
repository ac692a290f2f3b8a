import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '../../domain/errors.js';

/**
 * Takes the response over from Fastify and starts a server-sent events stream on it: the headers set
 * earlier in the request (rate-limit counters, a refreshed session cookie) go out with the stream's, and
 * the client is told to reconnect 2 s after the stream drops (an EventSource then sends Last-Event-ID).
 */
export function startEventStream(reply: FastifyReply): void {
  const raw = reply.raw;
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) raw.setHeader(name, value);
  }
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  raw.write('retry: 2000\n\n');
}

/**
 * The streams a route holds open. Each is ended when the server closes (an open stream would hold the
 * close forever), and a session may hold at most `maxPerSession` of them at once (tabs).
 */
export class OpenStreams {
  private readonly ends = new Set<() => void>();
  private readonly perSession = new Map<string, number>();

  constructor(
    app: FastifyInstance,
    private readonly maxPerSession = Number.POSITIVE_INFINITY,
  ) {
    app.addHook('preClose', async () => {
      for (const end of [...this.ends]) end();
    });
  }

  /** Counts one more stream of the session (refused with 429 past the limit); the answer releases it. */
  admit(session: string, what: string): () => void {
    if ((this.perSession.get(session) ?? 0) >= this.maxPerSession) {
      throw new DomainError(
        'rate_limited',
        `Too many ${what} are open for this session (at most ${this.maxPerSession}); close a tab.`,
      );
    }
    this.perSession.set(session, (this.perSession.get(session) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perSession.get(session) ?? 1) - 1;
      if (left > 0) this.perSession.set(session, left);
      else this.perSession.delete(session);
    };
  }

  /** Ends the stream at the server's close, until the answer is called. */
  track(end: () => void): () => void {
    this.ends.add(end);
    return () => this.ends.delete(end);
  }
}

/**
 * Writes a comment line every `heartbeatMs`, which keeps proxies from closing an idle stream. With
 * `signedIn`, the session is checked each time too: once signed out or expired, the page is told
 * (`event: signed-out`; its reconnection then gets a 401) and the stream ends.
 */
export function startHeartbeat(
  raw: ServerResponse,
  heartbeatMs: number,
  stream: { ended(): boolean; end(): void; signedIn?: () => Promise<boolean> },
): NodeJS.Timeout {
  const heartbeat = setInterval(() => {
    if (stream.ended()) return;
    raw.write(': heartbeat\n\n');
    stream.signedIn?.().then(
      (active) => {
        if (active) return;
        if (!stream.ended()) raw.write('event: signed-out\ndata: {}\n\n');
        stream.end();
      },
      () => stream.end(),
    );
  }, heartbeatMs);
  heartbeat.unref();
  return heartbeat;
}
