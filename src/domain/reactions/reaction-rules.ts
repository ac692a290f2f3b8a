import type { ReactorKey } from '../../db/repositories/reactions.js';
import { REACTION_CONTENTS, type ReactionContent } from '../../schemas/reactions.js';
import type { Actor } from '../actor.js';
import { invalid } from '../errors.js';

export { REACTION_CONTENTS, type ReactionContent } from '../../schemas/reactions.js';

export interface ReactionCount {
  content: ReactionContent;
  count: number;
  /** Only for a person in the web UI: whether this count includes their own reaction. */
  mine?: boolean;
}

const KNOWN: ReadonlySet<string> = new Set(REACTION_CONTENTS);

export function checkReactionContent(content: string): ReactionContent {
  if (!KNOWN.has(content)) {
    throw invalid('content', `must be one of ${REACTION_CONTENTS.map((c) => JSON.stringify(c)).join(', ')}.`);
  }
  return content as ReactionContent;
}

/**
 * Whose reaction it is: an API key (through the API or MCP), a person, or the operator. Each actor
 * holds at most one reaction of each content on a comment.
 */
export function reactorOf(actor: Actor): ReactorKey {
  switch (actor.kind) {
    case 'api_key':
      return { actor_kind: 'api_key', actor_id: actor.keyId };
    case 'user':
      return { actor_kind: 'user', actor_id: actor.userId };
    case 'system':
      return { actor_kind: 'system', actor_id: 'cli' };
  }
}

/** Counts in the contract's order, only contents with a count (`[]` when none). */
export function orderedCounts(counts: ReadonlyMap<string, number>): ReactionCount[] {
  return REACTION_CONTENTS.filter((content) => (counts.get(content) ?? 0) > 0).map((content) => ({
    content,
    count: counts.get(content) ?? 0,
  }));
}
