import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHORT_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

// Drawing from a pooled buffer avoids a randomBytes call (and its allocation) per id on hot create paths.
const pool = Buffer.allocUnsafe(8192);
let offset = pool.length;

function randomByte(): number {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++] as number;
}

/** Uniform random characters from `alphabet` by rejection sampling (no modulo bias). */
export function randomString(length: number, alphabet: string = ALPHABET): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

export type IdKind =
  | 'brd'
  | 'lane'
  | 'task'
  | 'cmt'
  | 'todo'
  | 'turn'
  | 'wh'
  | 'key'
  | 'dlv'
  | 'evt'
  | 'usr'
  | 'inv'
  | 'rvl'
  | 'sif'
  | 'ast'
  | 'agt'
  | 'ntf';

// Sequence numbers per millisecond in the sortable part; ms * 1296 stays a safe integer until the year 2189.
const PER_MS = 36 * 36;
let lastStamp = 0;

/** Strictly increasing within the process, even for ids drawn in the same millisecond. */
function nextStamp(): number {
  const candidate = Date.now() * PER_MS;
  lastStamp = candidate > lastStamp ? candidate : lastStamp + 1;
  return lastStamp;
}

/**
 * 22 characters: 11 lowercase base36 characters of creation time and sequence, then 11 random base62
 * characters (~65 bits). Ids therefore sort in creation order, so lists ordered by (created_at, id) keep
 * the creation order of rows written in the same millisecond; the lowercase prefix sorts the same under
 * byte order (SQLite) and PostgreSQL's locale collations.
 */
export function newId(kind: IdKind): string {
  return `${kind}_${nextStamp().toString(36).padStart(11, '0')}${randomString(11)}`;
}

/** Short task identifier: lowercase, 8 characters (~41 bits); uniqueness is enforced by the database. */
export function newShortId(): string {
  return randomString(8, SHORT_ALPHABET);
}

/** API key plaintext: `ak_` + 43 base62 characters (~256 bits). */
export function newApiKeyValue(): string {
  return `ak_${randomString(43)}`;
}
