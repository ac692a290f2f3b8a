import { createHash } from 'node:crypto';
import { invalid } from '../errors.js';

/**
 * A search cursor: the offset of the next page and a digest of the query and filters it belongs to.
 * Offsets, not keysets: ranks are floats that move as the index changes, and the first pages are
 * what people read (the offset is capped, see MAX_SEARCH_OFFSET). Opaque to clients (base64url JSON).
 */
interface Encoded {
  v: 1;
  q: string;
  o: number;
}

/** Results beyond the first 1 000 are not paged to: a deeper offset costs more than it is worth. */
export const MAX_SEARCH_OFFSET = 1000;

const MALFORMED = 'is not a valid cursor: pass back the `cursor` value of the previous page unchanged.';

export function queryDigest(identity: unknown): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url').slice(0, 22);
}

export function encodeSearchCursor(digest: string, offset: number): string {
  const encoded: Encoded = { v: 1, q: digest, o: offset };
  return Buffer.from(JSON.stringify(encoded), 'utf8').toString('base64url');
}

/** The offset a cursor points at; 400 when it is malformed or was issued for another query. */
export function searchCursorOffset(text: string, digest: string): number {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw invalid('cursor', MALFORMED);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor', MALFORMED);
  }
  const c = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<
    Record<keyof Encoded, unknown>
  >;
  if (
    c.v !== 1 ||
    typeof c.q !== 'string' ||
    typeof c.o !== 'number' ||
    !Number.isInteger(c.o) ||
    c.o < 1 ||
    c.o > MAX_SEARCH_OFFSET
  ) {
    throw invalid('cursor', MALFORMED);
  }
  if (c.q !== digest) {
    throw invalid('cursor', 'was issued for another query: send it with the same `q` and filters.');
  }
  return c.o;
}
