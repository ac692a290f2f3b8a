// A Laneboard webhook receiver in plain Node (no dependencies): verifies both signatures, rejects
// replays, and handles each delivery once.
//
//   LANEBOARD_WEBHOOK_SECRET=whsec_... PORT=8080 node docs/examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

const TOLERANCE_SECONDS = 5 * 60;

function sameText(a, b) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** GitHub-style: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the whole secret string. */
export function verifyServiceSignature(secret, rawBody, header) {
  if (typeof header !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
  return sameText(expected, header);
}

/**
 * Standard Webhooks: base64 HMAC-SHA256 of "id.timestamp.body", keyed with the base64-decoded part of
 * the secret after `whsec_`. The header may hold several space-separated `v1,<signature>` entries.
 */
export function verifyStandardSignature(
  secret,
  rawBody,
  headers,
  nowSeconds = Math.floor(Date.now() / 1000),
) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest('base64');
  return signatures.split(' ').some((entry) => entry.startsWith('v1,') && sameText(entry.slice(3), expected));
}

/** Returns the parsed event, or null when the request is not a genuine, fresh Laneboard delivery. */
export function verifyDelivery(secret, rawBody, headers, nowSeconds) {
  if (!verifyServiceSignature(secret, rawBody, headers['x-service-signature-256'])) return null;
  if (!verifyStandardSignature(secret, rawBody, headers, nowSeconds)) return null;
  return JSON.parse(rawBody);
}

export function createReceiver(secret, handle) {
  // Deliveries are at-least-once: remember handled delivery ids (use a database table in production).
  const handled = new Set();
  return http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const event = verifyDelivery(secret, rawBody, req.headers);
      if (event === null) {
        res.writeHead(401).end();
        return;
      }
      const deliveryId = req.headers['x-service-delivery'];
      if (!handled.has(deliveryId)) {
        handled.add(deliveryId);
        handle(event);
      }
      // Answer 2xx quickly (within the time-out); do slow work after answering.
      res.writeHead(204).end();
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.LANEBOARD_WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('Set LANEBOARD_WEBHOOK_SECRET to the whsec_... secret of your webhook.\n');
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 8080);
  createReceiver(secret, (event) => console.log(event.type, JSON.stringify(event.data))).listen(port, () =>
    console.log(`Listening for Laneboard webhooks on port ${port}`),
  );
}
