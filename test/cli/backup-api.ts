import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver.js';

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

/**
 * What a backup test backs up, made through `call`: a board `name` with a lane, a webhook to `hookUrl`
 * for an event nothing here fires (its only delivery will be a ping), and a TaskWriter creating tasks in
 * the lane, 20 of them acknowledged already.
 */
export async function boardUnderLoad(call: ApiCall, name: string, hookUrl: string) {
  const boardId = (await call('POST', '/boards', { name })).data.id as string;
  const laneId = (await call('POST', `/boards/${boardId}/lanes`, { name: 'Todo' })).data.id as string;
  const hook = await call('POST', '/webhooks', { url: hookUrl, events: ['board.deleted'] });
  expect(hook.status).toBe(201);
  const writer = new TaskWriter(call, boardId, laneId);
  await writer.reached(20);
  return { boardId, hook: { id: hook.data.id as string, secret: hook.data.secret as string }, writer };
}

/** Pings the webhook through `call`: its delivery reaches the receiver at `hookPath`, signed with `secret`. */
export async function expectPingSigned(
  call: ApiCall,
  receiver: WebhookReceiver,
  hookPath: string,
  hook: { id: string; secret: string },
): Promise<void> {
  const ping = await call('POST', `/webhooks/${hook.id}/ping`);
  expect(ping.status).toBe(202);
  const deliveryId = ping.data.delivery_id as string;
  const [delivery] = await receiver.waitFor(
    1,
    (r) => r.path === hookPath && r.headers['x-service-delivery'] === deliveryId,
    60_000,
  );
  expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'ping' });
  expect(delivery && signedWith(delivery, hook.secret)).toBe(true);
}
