import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useFixture } from './dialects.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body exactly as it arrived, for signature checks. */
  body: string;
  receivedAt: number;
}

export interface ReceiverReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer only after this many milliseconds. */
  delayMs?: number;
  /** Never answer (until released or the client goes away). */
  stall?: boolean;
}

/**
 * A webhook receiver on 127.0.0.1 that records every request (raw body and headers) and answers as the
 * test says: a fixed status, a delay, a redirect, or not at all.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** How to answer the next requests; a function decides per request. */
  reply: ReceiverReply | ((request: ReceivedRequest) => ReceiverReply) = { status: 204 };
  private readonly stalled = new Set<http.ServerResponse>();
  private waiters: Array<() => void> = [];

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests received on one path. */
  on(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Resolves with the requests matching `filter` once there are at least `count` of them. */
  async waitFor(
    count: number,
    filter: (request: ReceivedRequest) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.requests.filter(filter);
      if (matching.length >= count) return matching;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `receiver: expected ${count} request(s), got ${matching.length} after ${timeoutMs} ms`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The requests on one path, one per delivery id (`X-Service-Delivery`). Delivery is at least once: an
   * attempt that outlasts the sender's time-out on a loaded machine is sent again, and that is allowed
   * only as a repeat of the same delivery with a byte-identical body (anything else throws).
   */
  deliveries(path: string): Map<string, ReceivedRequest> {
    const byId = new Map<string, ReceivedRequest>();
    for (const request of this.on(path)) {
      const id = String(request.headers['x-service-delivery'] ?? '');
      if (id === '') throw new Error(`receiver: a request on ${path} has no X-Service-Delivery header`);
      const first = byId.get(id);
      if (first && first.body !== request.body) {
        throw new Error(`receiver: delivery ${id} arrived twice with different bodies`);
      }
      if (!first) byId.set(id, request);
    }
    return byId;
  }

  /** Resolves with one request per delivery once `count` distinct deliveries arrived on `path`. */
  async waitForDeliveries(
    path: string,
    count: number,
    timeoutMs = 10_000,
  ): Promise<Map<string, ReceivedRequest>> {
    await this.waitFor(count, (r) => r.path === path, timeoutMs);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const distinct = this.deliveries(path);
      if (distinct.size >= count || Date.now() >= deadline) return distinct;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Answers every stalled request with `status`. */
  releaseStalled(status = 204): void {
    for (const res of this.stalled) if (!res.writableEnded) res.writeHead(status).end();
    this.stalled.clear();
  }

  async close(): Promise<void> {
    this.releaseStalled(503);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      this.requests.push(received);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
      const reply = typeof this.reply === 'function' ? this.reply(received) : this.reply;
      if (reply.stall) {
        this.stalled.add(res);
        res.on('close', () => this.stalled.delete(res));
        return;
      }
      const answer = () => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(reply.status ?? 204, reply.headers ?? {});
        res.end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  }
}

/** A receiver for the enclosing describe, closed afterwards. */
export function useReceiver(): WebhookReceiver {
  return useFixture(
    'the webhook receiver',
    () => WebhookReceiver.start(),
    (receiver) => receiver.close(),
  );
}
