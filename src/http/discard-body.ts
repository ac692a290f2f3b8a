import type { IncomingMessage } from 'node:http';

/** How much of a refused body is read and thrown away, at most, before answering. */
export const DISCARD_LIMIT = { bytes: 64 * 1024 * 1024, ms: 10_000 };

/**
 * Reads and discards the rest of a request body the server has refused (413). Clients such as Node's
 * `fetch` and curl send the whole body before they read the answer: a server that answers and closes
 * while they are still sending makes them fail with EPIPE/ECONNRESET instead of reading the status.
 * Resolves true when the body ended, false when the bound (bytes or time) was reached first; then the
 * caller closes the connection.
 */
export function discardBody(raw: IncomingMessage, limit = DISCARD_LIMIT): Promise<boolean> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onStop);
      raw.off('close', onStop);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit.bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onStop = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), limit.ms);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onStop);
    raw.once('close', onStop);
    raw.resume();
  });
}
