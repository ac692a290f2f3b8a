import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/** Smaller answers gain less than compressing them costs (and most of the API's answers are small). */
export const COMPRESS_FROM_BYTES = 1024;
/** Up to this size compressing on the request's own turn is quicker than a trip to the thread pool. */
const SYNC_UP_TO_BYTES = 64 * 1024;
/**
 * Brotli at quality 4 compresses JSON better than gzip's default at about its speed (the top
 * qualities cost tens of milliseconds on a board view); gzip for browsers and clients without br.
 */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP = { level: 6 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';

/** The encoding the request accepts, brotli first; none when it names neither (or refuses with q=0). */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name) accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  for (const encoding of ['br', 'gzip'] as const) {
    const q = accepted.get(encoding) ?? accepted.get('*') ?? 0;
    if (q > 0) return encoding;
  }
  return null;
}

async function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (body.length <= SYNC_UP_TO_BYTES) {
    return encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body, GZIP);
  }
  return encoding === 'br' ? brotli(body, BROTLI) : gzip(body, GZIP);
}

/**
 * Compresses a JSON answer over 1 KB with the encoding the request accepts (a board view of 4 000
 * tasks is about 1.2 MB of JSON). A small answer costs a type check and a length check. Streams (the
 * live events, downloads) and the web UI's files (compressed at build time) are not touched.
 */
export const compressHook: onSendHookHandler = (request, reply, payload, done) => {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json')) return done(null, payload);
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (body.length < COMPRESS_FROM_BYTES || reply.hasHeader('content-encoding')) return done(null, payload);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  const encoding = acceptedEncoding(request.headers['accept-encoding']);
  if (!encoding || request.method === 'HEAD') return done(null, payload);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  compress(body, encoding).then((compressed) => done(null, compressed), done);
};

/**
 * Puts compressHook last on every route's onSend, after the route's own hooks: the idempotency store
 * (plugins/idempotency.ts) keeps the JSON text, and a replay is compressed like a first answer. Register
 * it after the plugins that add onSend hooks and before the routes.
 */
export const compressJson = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const own = route.onSend;
      route.onSend = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), compressHook];
    });
  },
  { name: 'compress-json' },
);
