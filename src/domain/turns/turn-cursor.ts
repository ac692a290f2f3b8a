import type { TurnSource } from '../../db/repositories/turns.js';
import { invalid } from '../errors.js';
import { decodeOpaqueCursor, encodeOpaqueCursor, MALFORMED_CURSOR } from '../opaque-cursor.js';
import { TURN_SOURCES } from './turn-input.js';

/**
 * What a turns cursor carries: the keyset position of the last turn returned, and the task and filters
 * it was issued for. Clients see it only as an opaque string (base64url of JSON); the format may change.
 */
export interface TurnCursor {
  taskId: string;
  source: TurnSource | null;
  after: string | null;
  newestFirst: boolean;
  capturedAt: string;
  id: string;
}

interface Encoded {
  v: 1;
  t: string;
  s: TurnSource | null;
  a: string | null;
  /** Present (true) only for newest-first pages, so older cursors still decode. */
  n?: true;
  c: string;
  i: string;
}

export function encodeTurnCursor(cursor: TurnCursor): string {
  const encoded: Encoded = {
    v: 1,
    t: cursor.taskId,
    s: cursor.source,
    a: cursor.after,
    ...(cursor.newestFirst ? { n: true as const } : {}),
    c: cursor.capturedAt,
    i: cursor.id,
  };
  return encodeOpaqueCursor(encoded);
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

function isSource(value: unknown): value is TurnSource | null {
  return value === null || (TURN_SOURCES as readonly unknown[]).includes(value);
}

export function decodeTurnCursor(text: string): TurnCursor {
  const c = decodeOpaqueCursor<Encoded>(text);
  if (
    c.v !== 1 ||
    typeof c.t !== 'string' ||
    !isSource(c.s) ||
    !isNullableString(c.a) ||
    typeof c.c !== 'string' ||
    typeof c.i !== 'string' ||
    (c.n !== undefined && c.n !== true)
  ) {
    throw invalid('cursor', MALFORMED_CURSOR);
  }
  return { taskId: c.t, source: c.s, after: c.a, newestFirst: c.n === true, capturedAt: c.c, id: c.i };
}

/** A cursor is only valid for the task and filters of the request that returned it. */
export function checkCursorMatches(
  cursor: TurnCursor,
  request: { taskId: string; source: TurnSource | null; after: string | null; newestFirst: boolean },
): void {
  if (cursor.taskId !== request.taskId) throw invalid('cursor', 'was issued for another task.');
  if (
    cursor.source !== request.source ||
    cursor.after !== request.after ||
    cursor.newestFirst !== request.newestFirst
  ) {
    throw invalid(
      'cursor',
      'was issued for other filters: send it with the same `source`, `after` and `order` as the request that returned it.',
    );
  }
}
