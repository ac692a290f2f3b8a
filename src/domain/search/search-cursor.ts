import { createHash } from 'node:crypto';
import { invalid } from '../errors.js';
import { decodeOpaqueCursor, encodeOpaqueCursor, MALFORMED_CURSOR } from '../opaque-cursor.js';

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

export function queryDigest(identity: unknown): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url').slice(0, 22);
}

export function encodeSearchCursor(digest: string, offset: number): string {
  const encoded: Encoded = { v: 1, q: digest, o: offset };
  return encodeOpaqueCursor(encoded);
}

/** The offset a cursor points at; 400 when it is malformed or was issued for another query. */
export function searchCursorOffset(text: string, digest: string): number {
  const c = decodeOpaqueCursor<Encoded>(text);
  if (
    c.v !== 1 ||
    typeof c.q !== 'string' ||
    typeof c.o !== 'number' ||
    !Number.isInteger(c.o) ||
    c.o < 1 ||
    c.o > MAX_SEARCH_OFFSET
  ) {
    throw invalid('cursor', MALFORMED_CURSOR);
  }
  if (c.q !== digest) {
    throw invalid('cursor', 'was issued for another query: send it with the same `q` and filters.');
  }
  return c.o;
}
