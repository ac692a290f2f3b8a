import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from '../domain/webhooks/webhook-secret.js';

export { newWebhookSecret } from '../domain/webhooks/webhook-secret.js';

export interface SignatureHeaders {
  'x-service-signature-256': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Both signatures of one attempt. The GitHub-style header is keyed with the whole secret string (UTF-8),
 * the Standard Webhooks one with the decoded bytes after `whsec_` over "id.timestamp.body".
 */
export function signDelivery(
  secret: string,
  deliveryId: string,
  timestampSeconds: number,
  body: string,
): SignatureHeaders {
  const hex = createHmac('sha256', secret).update(body, 'utf8').digest('hex');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const standard = createHmac('sha256', key)
    .update(`${deliveryId}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return {
    'x-service-signature-256': `sha256=${hex}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${standard}`,
  };
}
