import { invalid } from '../errors.js';

/**
 * The activity stream's cursor: opaque to clients (base64url of a versioned position), so the position
 * may change meaning later without breaking them. Today it is the id of the activity the event was, and
 * ids increase per database.
 */
const VERSION = 'a1';

export function encodeActivityCursor(activityId: number): string {
  return Buffer.from(`${VERSION}:${activityId}`, 'utf8').toString('base64url');
}

/** The activity id behind a cursor, or validation_error naming `field` for anything we did not hand out. */
export function decodeActivityCursor(cursor: string, field: string): number {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^a1:(0|[1-9]\d{0,14})$/.exec(text);
  if (!match) throw invalid(field, 'is not a cursor of this activity stream.');
  return Number(match[1]);
}

/** The stable `evt_` id of the event an activity is on the stream (the same on every read of it). */
export function activityEventId(activityId: number): string {
  return `evt_${encodeActivityCursor(activityId)}`;
}
