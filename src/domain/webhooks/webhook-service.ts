import { keyWithMembers } from '../../db/repositories/api-keys.js';
import {
  findDeliveryOfWebhook,
  insertDeliveries,
  listRecentDeliveries,
  notifyDispatchers,
  queueEvent,
} from '../../db/repositories/deliveries.js';
import {
  apiKeyIsActive,
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listWebhooks,
  updateWebhook,
} from '../../db/repositories/webhooks.js';
import type { WebhookRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { type Actor, keyWebhookActor } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { inTransaction, type Tx } from '../transaction.js';
import {
  type DeliveryView,
  normaliseEventFilter,
  toDeliveryView,
  toWebhook,
  type Webhook,
  webhookOwnerScope,
} from './webhook-rules.js';
import { newWebhookSecret } from './webhook-secret.js';
import { checkWebhookUrl, type UrlPolicy } from './webhook-url.js';

export type { DeliveryView, Webhook } from './webhook-rules.js';

export const RECENT_DELIVERIES = 25;

export interface CreatedWebhook extends Webhook {
  /** Returned once, here and by rotate-secret; stored encrypted. */
  secret: string;
}

export interface WebhookDetail extends Webhook {
  recent_deliveries: DeliveryView[];
}

export interface WebhookServiceOptions extends UrlPolicy {
  /** Called after a transaction that queued deliveries commits (wakes this process's dispatcher). */
  onDeliveriesQueued?: () => void;
  /** Called after a transaction that created a webhook commits (readies this process's dispatcher). */
  onWebhookCreated?: () => void;
}

export class WebhookService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly options: WebhookServiceOptions = { allowHttp: false, allowPrivate: false },
  ) {}

  async listWebhooks(actor: Actor): Promise<Webhook[]> {
    const rows = await listWebhooks(this.deps.database.kysely, webhookOwnerScope(actor));
    return rows.map(toWebhook);
  }

  /**
   * Creates an active webhook linked to the calling API key (operators and UI admins name the key
   * with `apiKeyId`). The secret is returned only here.
   */
  async createWebhook(
    actor: Actor,
    input: { url: string; events: string[]; apiKeyId?: string },
  ): Promise<CreatedWebhook> {
    const scope = webhookOwnerScope(actor);
    const apiKeyId = scope ?? input.apiKeyId;
    if (apiKeyId === undefined) throw invalid('apiKeyId', 'is required: name the API key to link.');
    if (scope !== null && input.apiKeyId !== undefined && input.apiKeyId !== scope) {
      throw invalid('apiKeyId', 'must be the calling API key.');
    }
    const events = normaliseEventFilter(input.events);
    const url = await checkWebhookUrl(input.url, this.options);
    const secret = newWebhookSecret();
    const now = isoNow(this.deps.clock);
    const row: WebhookRow = {
      id: newId('wh'),
      api_key_id: apiKeyId,
      url,
      events: JSON.stringify(events),
      active: 1,
      secret_sealed: this.deps.secrets.encrypt(secret),
      created_at: now,
      updated_at: now,
    };
    await inTransaction(this.deps.database, async (tx) => {
      if (!(await apiKeyIsActive(tx.db, apiKeyId))) throw notFound(`API key ${apiKeyId}`);
      await insertWebhook(tx.db, row);
      tx.afterCommit(this.matchingChanged);
      tx.afterCommit(() => this.options.onWebhookCreated?.());
    });
    return { ...toWebhook(row), secret };
  }

  /**
   * This instance's next change must match against the new webhooks at once: other instances hear of
   * it through the database (db/key-changes.ts), which on PostgreSQL arrives a moment later here too.
   */
  private readonly matchingChanged = () => this.deps.database.keyChanges.changed();

  async getWebhook(actor: Actor, id: string): Promise<WebhookDetail> {
    const db = this.deps.database.kysely;
    const row = await findWebhook(db, id, webhookOwnerScope(actor));
    if (!row) throw notFound('Webhook');
    const deliveries = await listRecentDeliveries(db, id, RECENT_DELIVERIES);
    return { ...toWebhook(row), recent_deliveries: deliveries.map(toDeliveryView) };
  }

  /**
   * Changes any of url, events, active. Pausing stops new events from being queued; deliveries already
   * queued wait and go out after resume.
   */
  async updateWebhook(
    actor: Actor,
    id: string,
    input: { url?: string; events?: string[]; active?: boolean },
  ): Promise<Webhook> {
    const scope = webhookOwnerScope(actor);
    const events = input.events === undefined ? undefined : normaliseEventFilter(input.events);
    const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url, this.options);
    return inTransaction(this.deps.database, async (tx) => {
      const row = await findWebhook(tx.db, id, scope);
      if (!row) throw notFound('Webhook');
      const updated: WebhookRow = {
        ...row,
        url: url ?? row.url,
        events: events === undefined ? row.events : JSON.stringify(events),
        active: input.active === undefined ? row.active : input.active ? 1 : 0,
        updated_at: isoNow(this.deps.clock),
      };
      if (updated.url === row.url && updated.events === row.events && updated.active === row.active) {
        return toWebhook(row);
      }
      await updateWebhook(tx.db, id, {
        url: updated.url,
        events: updated.events,
        active: updated.active,
        updated_at: updated.updated_at,
      });
      if (row.active === 0 && updated.active === 1) await this.deliveriesQueued(tx);
      tx.afterCommit(this.matchingChanged);
      return toWebhook(updated);
    });
  }

  /** Deletes the webhook with its pending deliveries and its history. */
  async deleteWebhook(actor: Actor, id: string): Promise<void> {
    const scope = webhookOwnerScope(actor);
    await inTransaction(this.deps.database, async (tx) => {
      if (!(await findWebhook(tx.db, id, scope))) throw notFound('Webhook');
      await deleteWebhook(tx.db, id);
      tx.afterCommit(this.matchingChanged);
    });
  }

  /** Queues a `ping` event to this webhook only, whatever its event filter. */
  async pingWebhook(actor: Actor, id: string): Promise<{ delivery_id: string }> {
    const scope = webhookOwnerScope(actor);
    return inTransaction(this.deps.database, async (tx) => {
      const webhook = await findWebhook(tx.db, id, scope);
      if (!webhook) throw notFound('Webhook');
      const key = await keyWithMembers(tx.db, webhook.api_key_id);
      const now = this.deps.clock.now();
      const payload = {
        id: newId('evt'),
        type: 'ping',
        timestamp: new Date(now).toISOString(),
        // Whoever pressed ping, the webhook's own key is the actor its receiver knows.
        ...(key ? { actor: keyWebhookActor({ ...key, keyId: key.id }) } : {}),
        data: { board_id: null, webhook_id: id },
      };
      const [deliveryId] = await queueEvent(tx, payload, null, [id], now);
      tx.afterCommit(() => this.options.onDeliveriesQueued?.());
      return { delivery_id: deliveryId as string };
    });
  }

  /** Queues the same event again as a new delivery (new delivery id, same event id and body). */
  async redeliver(actor: Actor, id: string, deliveryId: string): Promise<{ delivery_id: string }> {
    const scope = webhookOwnerScope(actor);
    return inTransaction(this.deps.database, async (tx) => {
      if (!(await findWebhook(tx.db, id, scope))) throw notFound('Webhook');
      const original = await findDeliveryOfWebhook(tx.db, id, deliveryId);
      if (!original) throw notFound('Delivery');
      const [newDeliveryId] = await insertDeliveries(tx, original.event_id, [id], this.deps.clock.now());
      await this.deliveriesQueued(tx);
      return { delivery_id: newDeliveryId as string };
    });
  }

  /** Replaces the signing secret; attempts from now on are signed with the new one only. */
  async rotateSecret(actor: Actor, id: string): Promise<{ secret: string }> {
    const scope = webhookOwnerScope(actor);
    const secret = newWebhookSecret();
    await inTransaction(this.deps.database, async (tx) => {
      if (!(await findWebhook(tx.db, id, scope))) throw notFound('Webhook');
      await updateWebhook(tx.db, id, {
        secret_sealed: this.deps.secrets.encrypt(secret),
        updated_at: isoNow(this.deps.clock),
      });
    });
    return { secret };
  }

  private async deliveriesQueued(tx: Tx): Promise<void> {
    notifyDispatchers(tx);
    tx.afterCommit(() => this.options.onDeliveriesQueued?.());
  }
}
