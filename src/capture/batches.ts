import type { TurnPayload } from './api-client.js';

export const MAX_TURNS_PER_BATCH = 100;
/** The server takes turn bodies up to 10 MiB; batches stay well below it whatever the JSON escaping. */
export const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * What one transcript line is: a turn to send, a line that is no turn (another event type, a sub-agent's
 * message, a tool result), or a malformed line (not JSON, or a message without id or time), which is
 * skipped too but counted in the run's log line.
 */
export type LineMapping = TurnPayload | 'skip' | 'malformed';

export interface MappedLine {
  /** The turn the line holds, or null. */
  turn: TurnPayload | null;
  /** The byte offset just past the line's newline. */
  end: number;
}

export interface Batch {
  turns: TurnPayload[];
  /** Once the server accepted the batch, the transcript is done up to here (a line boundary). */
  end: number;
}

/**
 * Groups the turns of `lines` into batches of at most 100 turns and `maxBytes` of JSON, in file order.
 * Lines that are no turn belong to the batch before them, so the offset moves past them with it; the
 * last batch may hold no turn at all when only such lines are left.
 */
export function batchLines(lines: readonly MappedLine[], start: number, maxBytes = MAX_BATCH_BYTES): Batch[] {
  const batches: Batch[] = [];
  let current: Batch = { turns: [], end: start };
  let bytes = 0;
  for (const { turn, end } of lines) {
    if (turn) {
      const size = Buffer.byteLength(JSON.stringify(turn), 'utf8');
      if (
        current.turns.length === MAX_TURNS_PER_BATCH ||
        (current.turns.length > 0 && bytes + size > maxBytes)
      ) {
        batches.push(current);
        current = { turns: [], end: current.end };
        bytes = 0;
      }
      current.turns.push(turn);
      bytes += size;
    }
    current.end = end;
  }
  if (current.turns.length > 0 || current.end > start) batches.push(current);
  return batches;
}
