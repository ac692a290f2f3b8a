import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** `whsec_` + base64 of 32 random bytes: usable as-is for GitHub-style HMAC and by Standard Webhooks libraries. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}
