import { DELIVERED_EVENT_TYPES, EVENT_PAYLOADS } from '../../schemas/events.js';

/**
 * What the route schemas cannot say about themselves, added to the generated document in one pass:
 * the headers every response carries, descriptions of success responses, the tag list, the license
 * and the `webhooks` section (the requests Laneboard sends, not ones it answers).
 */

const API_PREFIX = '/api/ext/v1';

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
interface Operation {
  tags?: string[];
  responses?: Record<string, Response>;
}
export interface OpenApiObject {
  info: Record<string, unknown>;
  tags?: Array<{ name: string; description: string }>;
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Tags in reading order, with what each holds; a tag used by an operation but missing here fails a test. */
export const TAGS: Array<{ name: string; description: string }> = [
  { name: 'Boards', description: 'Boards hold lanes. A key sees the boards it holds a grant on.' },
  { name: 'Lanes', description: 'Ordered columns of a board; `position` runs 0..n-1.' },
  { name: 'Tasks', description: 'Cards in a lane, with priority, tags and a dense position.' },
  { name: 'Comments', description: 'The discussion thread of a task.' },
  { name: 'Todos', description: "A task's checklist, grouped by iteration." },
  { name: 'Assets', description: 'Files attached to a task.' },
  { name: 'Reactions', description: "GitHub's eight reactions on comments." },
  { name: 'Turns', description: "Captured turns of an agent's conversation about a task." },
  { name: 'Search', description: 'Full-text search over tasks, comments, todos and turns.' },
  { name: 'Members', description: 'People and agents: who a task can be assigned to, and who the key is.' },
  { name: 'Webhooks', description: 'Signed HTTP callbacks for changes made through this API.' },
  {
    name: 'Activity stream',
    description:
      'Every change on your boards, web UI changes included, as server-sent events or a long poll.',
  },
  {
    name: 'Webhook events',
    description: 'The requests Laneboard sends to a webhook URL, one per event type.',
  },
  { name: 'Meta', description: 'The API description itself.' },
];

const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });

const HEADERS = {
  'X-RateLimit-Limit': header('Requests allowed per key in the window.', {
    type: 'integer',
    examples: [600],
  }),
  'X-RateLimit-Remaining': header('Requests left in the current window.', {
    type: 'integer',
    examples: [599],
  }),
  'X-RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer', examples: [42] }),
  'Retry-After': header('Whole seconds to wait before retrying (at least 1).', {
    type: 'integer',
    minimum: 1,
    examples: [42],
  }),
  'WWW-Authenticate': header('The authentication scheme to use: always `Bearer`.', {
    type: 'string',
    const: 'Bearer',
  }),
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK.',
  '201': 'Created; the body holds the whole created object.',
  '202': 'Accepted: the delivery is queued.',
  '204': 'Done; no body.',
};

/** Every `/api/ext/v1` response carries the rate-limit headers; 401 and 429 carry their own. */
function describeResponses(doc: OpenApiObject): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(API_PREFIX)) continue;
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === 'Default Response') {
          response.description = SUCCESS_DESCRIPTIONS[status] ?? 'OK.';
        }
        response.headers = {
          ...response.headers,
          'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
          'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
          'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
          ...(status === '401' ? { 'WWW-Authenticate': headerRef('WWW-Authenticate') } : {}),
          ...(status === '429' ? { 'Retry-After': headerRef('Retry-After') } : {}),
        };
      }
    }
  }
}

const deliveryHeader = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** Headers of every delivery (the specification's and the Standard Webhooks ones). */
const DELIVERY_HEADERS = [
  deliveryHeader('X-Service-Event', 'The event type.', { type: 'string', enum: [...DELIVERED_EVENT_TYPES] }),
  deliveryHeader('X-Service-Delivery', 'The delivery id, the same on every attempt of the delivery.', {
    type: 'string',
    examples: ['dlv_Q2hT9xLr0aZb'],
  }),
  deliveryHeader(
    'X-Service-Signature-256',
    '`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_...`, UTF-8).',
    { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  ),
  deliveryHeader('webhook-id', 'Standard Webhooks: the delivery id.', { type: 'string' }),
  deliveryHeader('webhook-timestamp', 'Standard Webhooks: Unix seconds of the attempt.', {
    type: 'string',
    pattern: '^[0-9]+$',
  }),
  deliveryHeader(
    'webhook-signature',
    'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the base64-decoded part of the secret after `whsec_`.',
    { type: 'string', pattern: '^v1,' },
  ),
];

function webhookSection(): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const [type, schema] of Object.entries(EVENT_PAYLOADS)) {
    const name = type.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase());
    section[type] = {
      post: {
        operationId: `${name}Event`,
        summary: `${type} event`,
        description: `${schema.description ?? ''} Delivered as a POST to the webhook URL; any 2xx answer within the time-out counts as delivered, anything else is retried.`,
        tags: ['Webhook events'],
        security: [],
        parameters: DELIVERY_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          '200': { description: 'Any 2xx answer marks the delivery delivered.' },
          default: { description: 'Any other answer, a time-out or a connection error is a failed attempt.' },
        },
      },
    };
  }
  return section;
}

/** Adds headers, tags, license and webhooks to the generated document (in place; returned for chaining). */
export function completeDocument(doc: OpenApiObject): OpenApiObject {
  describeResponses(doc);
  const used = new Set<string>(['Webhook events']);
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) for (const tag of operation.tags ?? []) used.add(tag);
  }
  doc.tags = TAGS.filter((tag) => used.has(tag.name));
  doc.components = { ...doc.components, headers: HEADERS };
  // JSON.stringify drops TypeBox's symbol keys; the copy keeps the served document plain JSON.
  doc.webhooks = JSON.parse(JSON.stringify(webhookSection())) as Record<string, unknown>;
  return doc;
}
