import type { FastifyReply } from 'fastify';

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
