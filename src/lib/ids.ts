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

export type IdKind = 'brd' | 'lane' | 'task' | 'cmt' | 'todo' | 'turn' | 'wh' | 'key' | 'dlv' | 'evt';

/** 22 base62 characters carry ~131 bits: unguessable and collision-free in practice. */
export function newId(kind: IdKind): string {
  return `${kind}_${randomString(22)}`;
}

/** Short task identifier: lowercase, 8 characters (~41 bits); uniqueness is enforced by the database. */
export function newShortId(): string {
  return randomString(8, SHORT_ALPHABET);
}

/** API key plaintext: `ak_` + 43 base62 characters (~256 bits). */
export function newApiKeyValue(): string {
  return `ak_${randomString(43)}`;
}
