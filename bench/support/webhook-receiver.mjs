// The receiving end of the webhook benches: bench/webhook-sink.mjs in a process of its own, so that it
// does not share the sender's event loop, and the settings a server needs to deliver to it.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SINK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../webhook-sink.mjs');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What lets a server deliver to the receiver, on 127.0.0.1 over plain HTTP (added to its environment). */
export const WEBHOOK_ENV = { LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true', LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true' };

/**
 * Forks the receiver and resolves once it listens: its `port`; `ask(message)`, which resolves with its
 * answer ('stats', 'count', 'arrivals', 'sample', 'reset': see webhook-sink.mjs); `waitFor(count)`;
 * `stop()`.
 */
export function startSink() {
  const child = fork(SINK, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (message) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });
  /**
   * Asks `message` ('count' or 'stats') every `pollMs` until the receiver has `count` distinct
   * deliveries or `timeoutMs` has passed; resolves with the last answer either way.
   */
  const waitFor = async (count, { timeoutMs, message = 'count', pollMs = 10 }) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await ask(message);
      if (answer.distinct >= count || Date.now() > deadline) return answer;
      await sleep(pollMs);
    }
  };
  return new Promise((resolve) =>
    child.once('message', ({ port }) => resolve({ port, ask, waitFor, stop: () => child.send('stop') })),
  );
}
