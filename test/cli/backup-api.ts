import { createHmac } from 'node:crypto';
import type { ReceivedRequest } from '../support/webhook-receiver.js';

/** A call to a running server's external API with one key: the status and the JSON body. */
export type ApiCall = (
  method: string,
  url: string,
  body?: unknown,
) => Promise<{ status: number; data: Record<string, unknown> }>;

export function apiClient(baseUrl: string, key: string): ApiCall {
  return async (method, url, body) => {
    const res = await fetch(`${baseUrl}/api/ext/v1${url}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (res.status === 204 ? {} : await res.json()) as { data?: Record<string, unknown> };
    return { status: res.status, data: json.data ?? (json as Record<string, unknown>) };
  };
}

/**
 * Creates tasks in one lane, one after another, until stopped; `acknowledged` holds each task whose
 * creation was answered 201, in order.
 */
export class TaskWriter {
  readonly acknowledged: string[] = [];
  private stopped = false;
  private readonly done: Promise<void>;
  private waiter: { count: number; resolve: () => void } | null = null;

  constructor(
    private readonly call: ApiCall,
    private readonly boardId: string,
    private readonly laneId: string,
  ) {
    this.done = this.run();
  }

  private async run(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const res = await this.call('POST', `/boards/${this.boardId}/tasks`, {
        title: `Load ${i}`,
        laneId: this.laneId,
      });
      if (res.status !== 201) throw new Error(`task creation answered ${res.status}`);
      this.acknowledged.push(res.data.id as string);
      if (this.waiter && this.acknowledged.length >= this.waiter.count) this.waiter.resolve();
    }
  }

  /** Resolves once `count` creations have been acknowledged (or rejects if the writer failed). */
  async reached(count: number): Promise<void> {
    if (this.acknowledged.length >= count) return;
    const reached = new Promise<void>((resolve) => {
      this.waiter = { count, resolve };
    });
    await Promise.race([reached, this.done.then(() => Promise.reject(new Error('the writer stopped')))]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

/** Whether a delivery carries the GitHub-style signature made with `secret` (the whole `whsec_` string). */
export function signedWith(request: ReceivedRequest, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
  return request.headers['x-service-signature-256'] === expected;
}
