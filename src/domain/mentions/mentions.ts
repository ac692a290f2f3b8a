import { listActiveMembers } from '../../db/repositories/agents.js';
import type { Executor } from '../../db/schema.js';

export interface Mentioned {
  id: string;
  type: 'person' | 'agent';
  name: string;
}

/** Fenced blocks and inline code spans: an `@name` there is code, not a mention. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
/** A character that may not come right before `@` (an e-mail address) or right after a name. */
const WORD = /[\p{L}\p{N}_.%+-]/u;
const NAME_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The members a text mentions: `@` + a member's name (case-insensitive; the longest name wins, so
 * "@Grace Hopper" is Grace Hopper, not a member called Grace), not inside code, not part of an e-mail
 * address. Each member once, in the order first mentioned.
 */
export function findMentions(text: string, members: readonly Mentioned[]): Mentioned[] {
  if (!text.includes('@') || members.length === 0) return [];
  const prose = text.replace(CODE, (code) => ' '.repeat(code.length));
  const byLength = [...members].sort((a, b) => b.name.length - a.name.length);
  const found = new Map<string, Mentioned>();
  for (let at = prose.indexOf('@'); at !== -1; at = prose.indexOf('@', at + 1)) {
    if (at > 0 && WORD.test(prose[at - 1] as string)) continue;
    const rest = prose.slice(at + 1).toLowerCase();
    const member = byLength.find((m) => {
      const name = m.name.toLowerCase();
      if (name === '' || !rest.startsWith(name)) return false;
      const next = rest[name.length];
      return next === undefined || !NAME_CHAR.test(next);
    });
    if (member && !found.has(member.id)) found.set(member.id, member);
  }
  return [...found.values()];
}

/** The active members a text mentions (nothing is read when the text has no `@`). */
export async function mentionsIn(db: Executor, text: string): Promise<Mentioned[]> {
  if (!text.includes('@')) return [];
  return findMentions(text, await listActiveMembers(db));
}
