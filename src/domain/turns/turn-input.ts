import type { Static } from '@sinclair/typebox';
import type { TurnSource } from '../../db/repositories/turns.js';
import type { TurnRow } from '../../db/schema.js';
import type { TurnInput as TurnInputSchema } from '../../schemas/turns.js';
import { MAX_TURNS_PER_BATCH, TURN_ROLES, TURN_SOURCES } from '../../schemas/turns.js';
import { invalid } from '../errors.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { normaliseTimestamp } from './timestamp.js';

export { MAX_TURNS_PER_BATCH, TURN_ROLES, TURN_SOURCES };

// The shared schemas list the values; the stored columns must accept every one of them.
TURN_SOURCES satisfies readonly TurnSource[];
TURN_ROLES satisfies readonly TurnRow['role'][];

export type TurnRole = (typeof TURN_ROLES)[number];

export type TurnInput = Static<typeof TurnInputSchema>;

/** A turn as checked and normalised, ready to store. */
export interface NormalisedTurn {
  source: TurnSource;
  sourceId: string;
  role: TurnRole;
  content: string;
  capturedAt: string;
  toolUseOnly: boolean;
}

function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalid(field, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}.`);
  }
  return value as T;
}

/**
 * Checks a batch and returns its turns normalised, each (source, sourceId) once: a repeat inside the
 * batch is dropped here like a repeat of a stored turn is dropped by the database (first one wins).
 * Content is stored exactly as captured, not trimmed (indentation matters in code), so its limit of
 * 1 MiB of UTF-8 applies to it as sent.
 */
export function normaliseTurnBatch(turns: readonly TurnInput[]): NormalisedTurn[] {
  if (turns.length < 1 || turns.length > MAX_TURNS_PER_BATCH) {
    throw invalid('turns', `must hold 1 to ${MAX_TURNS_PER_BATCH} turns.`);
  }
  const byKey = new Map<string, NormalisedTurn>();
  turns.forEach((turn, index) => {
    const at = `turns[${index}]`;
    const source = oneOf(`${at}.source`, turn.source, TURN_SOURCES);
    const sourceId = requiredText(`${at}.sourceId`, turn.sourceId, LIMITS.turnSourceId);
    if (Buffer.byteLength(turn.content, 'utf8') > LIMITS.turnContent) {
      throw invalid(`${at}.content`, `must be at most ${LIMITS.turnContent} bytes (1 MiB) of UTF-8.`);
    }
    const normalised: NormalisedTurn = {
      source,
      sourceId,
      role: oneOf(`${at}.role`, turn.role, TURN_ROLES),
      content: turn.content,
      capturedAt: normaliseTimestamp(`${at}.capturedAt`, turn.capturedAt),
      toolUseOnly: turn.toolUseOnly ?? false,
    };
    const key = `${source}\u0000${sourceId}`;
    if (!byKey.has(key)) byKey.set(key, normalised);
  });
  return [...byKey.values()];
}
