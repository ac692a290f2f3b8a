import type { TurnSource } from '../../db/repositories/turns.js';
import { invalid } from '../errors.js';
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

const MALFORMED = 'is not a valid cursor: pass back the `cursor` value of the previous page unchanged.';

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
  return Buffer.from(JSON.stringify(encoded), 'utf8').toString('base64url');
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

function isSource(value: unknown): value is TurnSource | null {
  return value === null || (TURN_SOURCES as readonly unknown[]).includes(value);
}

export function decodeTurnCursor(text: string): TurnCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw invalid('cursor', MALFORMED);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor', MALFORMED);
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('cursor', MALFORMED);
  const c = parsed as Partial<Record<keyof Encoded, unknown>>;
  if (
    c.v !== 1 ||
    typeof c.t !== 'string' ||
    !isSource(c.s) ||
    !isNullableString(c.a) ||
    typeof c.c !== 'string' ||
    typeof c.i !== 'string' ||
    (c.n !== undefined && c.n !== true)
  ) {
    throw invalid('cursor', MALFORMED);
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
