import { invalid } from './errors.js';

/**
 * Page cursors that clients see only as an opaque string: base64url of a small JSON object, so the
 * format may change without clients noticing. Each kind checks its own fields after decoding.
 */
export const MALFORMED_CURSOR =
  'is not a valid cursor: pass back the `cursor` value of the previous page unchanged.';

export function encodeOpaqueCursor(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The cursor's fields, each still unchecked; 400 `cursor` when it is not base64url of a JSON object. */
export function decodeOpaqueCursor<T extends object>(text: string): Partial<Record<keyof T, unknown>> {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw invalid('cursor', MALFORMED_CURSOR);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor', MALFORMED_CURSOR);
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('cursor', MALFORMED_CURSOR);
  return parsed as Partial<Record<keyof T, unknown>>;
}
