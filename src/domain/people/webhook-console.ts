import { findApiKeyById } from '../../db/repositories/api-keys.js';
import type { DeliveryWithType } from '../../db/repositories/deliveries.js';
import {
  attemptsOf,
  type DeliveryEventRow,
  deliveriesOf,
  deliveryEvents,
  firstDeliveries,
  lastDeliveries,
  taskNames,
} from '../../db/repositories/settings-console.js';
import { findWebhook, listWebhooks } from '../../db/repositories/webhooks.js';
import type { DeliveryAttemptRow } from '../../db/schema.js';
import { WEBHOOK_EVENT_TYPES } from '../../schemas/events.js';
import type { Actor } from '../actor.js';
import { invalid } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { webhookOwnerScope } from '../webhooks/webhook-rules.js';
import type { Webhook, WebhookService } from '../webhooks/webhook-service.js';

const DELIVERIES_SHOWN = 50;
const STATUSES = ['pending', 'delivered', 'failed'] as const;
type DeliveryStatus = (typeof STATUSES)[number];

export interface ConsoleWebhook extends Webhook {
  apiKey: { id: string; name: string; prefix: string } | null;
  lastDelivery: {
    id: string;
    status: DeliveryStatus;
    eventType: string;
    createdAt: string;
    responseStatus: number | null;
  } | null;
}

export interface ConsoleAttempt {
  number: number;
  at: string;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
}

export interface ConsoleDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  attempts: ConsoleAttempt[];
  /** The board the event happened on (null for a ping); `name` is null once the board is deleted. */
  board: { id: string; name: string | null } | null;
  /** What the event is about on that board: a task (with its title now, null once deleted) or a lane. */
  subject:
    | { type: 'task'; id: string; shortId: string | null; title: string | null }
    | { type: 'lane'; id: string; name: string | null }
    | null;
  /** For a redelivery: the id of the event's first delivery to this webhook, which it repeats. */
  repeats: string | null;
}

/** Where each listed delivery's event happened and whether it repeats an earlier delivery. */
interface DeliveryContext {
  events: Map<string, DeliveryEventRow & { data: EventData }>;
  tasks: Map<string, { short_id: string; title: string }>;
  firsts: Map<string, string>;
}

interface EventData {
  task_id?: string;
  title?: string;
  lane_id?: string;
  name?: string;
}

/**
 * Settings > Webhooks: every webhook with its key and last delivery, and the delivery log with each
 * attempt. Changes go through WebhookService, whose rules (owners and admins only) apply unchanged.
 */
export class WebhookConsole {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly webhooks: WebhookService,
  ) {}

  eventTypes(actor: Actor): string[] {
    webhookOwnerScope(actor);
    return [...WEBHOOK_EVENT_TYPES];
  }

  async list(actor: Actor): Promise<ConsoleWebhook[]> {
    const scope = webhookOwnerScope(actor);
    const db = this.deps.database.kysely;
    const rows = await listWebhooks(db, scope);
    const last = await lastDeliveries(
      db,
      rows.map((r) => r.id),
    );
    const hooks = await this.webhooks.listWebhooks(actor);
    const keyIds = new Map(rows.map((r) => [r.id, r.api_key_id]));
    return Promise.all(
      hooks.map(async (hook) => ({
        ...hook,
        apiKey: await this.keyRef(keyIds.get(hook.id) ?? ''),
        lastDelivery: summary(last.get(hook.id)),
      })),
    );
  }

  /** Creates the webhook (WebhookService's rules) and answers it as the list shows it, with its secret. */
  async create(
    actor: Actor,
    input: { url: string; events: string[]; apiKeyId: string },
  ): Promise<ConsoleWebhook & { secret: string }> {
    const created = await this.webhooks.createWebhook(actor, input);
    return { ...(await this.shown(actor, created.id)), secret: created.secret };
  }

  /** Changes the webhook (WebhookService's rules) and answers it as the list shows it. */
  async update(
    actor: Actor,
    id: string,
    input: { url?: string; events?: string[]; active?: boolean },
  ): Promise<ConsoleWebhook> {
    await this.webhooks.updateWebhook(actor, id, input);
    return this.shown(actor, id);
  }

  private async shown(actor: Actor, id: string): Promise<ConsoleWebhook> {
    const { deliveries: _deliveries, ...webhook } = await this.get(actor, id, undefined);
    return webhook;
  }

  async get(
    actor: Actor,
    id: string,
    statusText: string | undefined,
  ): Promise<ConsoleWebhook & { deliveries: ConsoleDelivery[] }> {
    const status = parseStatus(statusText);
    const detail = await this.webhooks.getWebhook(actor, id);
    const db = this.deps.database.kysely;
    const keyId = (await findWebhook(db, id, null))?.api_key_id ?? '';
    const deliveries = await deliveriesOf(db, id, status, DELIVERIES_SHOWN);
    const attempts = await attemptsOf(
      db,
      deliveries.map((d) => d.id),
    );
    const context = await this.context(id, deliveries);
    const { recent_deliveries: _recent, ...hook } = detail;
    return {
      ...hook,
      apiKey: await this.keyRef(keyId),
      lastDelivery: summary(deliveries[0]),
      deliveries: deliveries.map((d) => toConsoleDelivery(d, attempts, context)),
    };
  }

  /** Three set-based reads for the whole page: events with board names, tasks, first deliveries. */
  private async context(webhookId: string, deliveries: DeliveryWithType[]): Promise<DeliveryContext> {
    const db = this.deps.database.kysely;
    const eventIds = [...new Set(deliveries.map((d) => d.event_id))];
    const events = new Map(
      (await deliveryEvents(db, eventIds)).map((row) => {
        const parsed = JSON.parse(row.payload) as { data?: EventData };
        return [row.id, { ...row, data: parsed.data ?? {} }] as const;
      }),
    );
    const taskIds = [
      ...new Set([...events.values()].flatMap((e) => (e.data.task_id ? [e.data.task_id] : []))),
    ];
    const tasks = new Map((await taskNames(db, taskIds)).map((t) => [t.id, t]));
    return { events, tasks, firsts: await firstDeliveries(db, webhookId, eventIds) };
  }

  private async keyRef(keyId: string): Promise<ConsoleWebhook['apiKey']> {
    const row = await findApiKeyById(this.deps.database.kysely, keyId);
    if (!row) return null;
    return { id: row.id, name: row.name, prefix: this.deps.secrets.decrypt(row.key_sealed).slice(0, 7) };
  }
}

function parseStatus(text: string | undefined): DeliveryStatus | null {
  if (text === undefined || text === '') return null;
  if ((STATUSES as readonly string[]).includes(text)) return text as DeliveryStatus;
  throw invalid('status', 'must be one of delivered, pending, failed.');
}

function summary(row: DeliveryWithType | undefined): ConsoleWebhook['lastDelivery'] {
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    eventType: row.event_type,
    createdAt: row.created_at,
    responseStatus: row.response_status,
  };
}

function subjectOf(event: DeliveryEventRow & { data: EventData }, context: DeliveryContext) {
  const { task_id, lane_id } = event.data;
  if (task_id) {
    const task = context.tasks.get(task_id);
    return {
      type: 'task' as const,
      id: task_id,
      shortId: task?.short_id ?? null,
      title: task?.title ?? event.data.title ?? null,
    };
  }
  if (lane_id) return { type: 'lane' as const, id: lane_id, name: event.data.name ?? null };
  return null;
}

function toConsoleDelivery(
  row: DeliveryWithType,
  attempts: DeliveryAttemptRow[],
  context: DeliveryContext,
): ConsoleDelivery {
  const event = context.events.get(row.event_id);
  const first = context.firsts.get(row.event_id);
  return {
    board: event?.board_id ? { id: event.board_id, name: event.board_name } : null,
    subject: event ? subjectOf(event, context) : null,
    repeats: first && first !== row.id ? first : null,
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null,
    // Only the attempts this row already counts: the two reads are not one snapshot, and an attempt
    // recorded between them would show beside the delivery's state from before it.
    attempts: attempts
      .filter((a) => a.delivery_id === row.id && a.number <= row.attempts)
      .map((a) => ({
        number: a.number,
        at: a.at,
        responseStatus: a.response_status,
        responseBody: a.response_body,
        durationMs: a.duration_ms,
        error: a.error,
      })),
  };
}
