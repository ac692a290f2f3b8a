import { TAG_COLORS, type TagColorName } from '../../schemas/tag-colors.js';
import { invalid } from '../errors.js';
import { LIMITS } from '../text-rules.js';

export { TAG_COLORS, type TagColorName };

/*
 * The colour a tag shows when its board chose none: a hash of its name over the palette without gray
 * (gray is a deliberate "quiet" choice, never a default). The web UI computes the same
 * (web/src/pages/board/tag-tone.ts; test/unit/tag-colors.test.ts keeps the two equal), so a tag looks
 * the same on every board that did not choose, with nothing stored.
 */
const DERIVED: readonly TagColorName[] = TAG_COLORS.filter((color) => color !== 'gray');

export function derivedTagColor(tag: string): TagColorName {
  let hash = 0;
  for (let i = 0; i < tag.length; i++) hash = (hash * 31 + tag.charCodeAt(i)) >>> 0;
  return DERIVED[hash % DERIVED.length] as TagColorName;
}

/** A tag as tasks hold it: trimmed, 1..50 characters (text-rules.ts, normaliseTags). */
export function tagName(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > LIMITS.tagLength) {
    throw invalid('tag', `must be 1 to ${LIMITS.tagLength} characters long.`);
  }
  return trimmed;
}

/** A palette colour, or null for "the derived one". */
export function tagColor(value: string | null): TagColorName | null {
  if (value === null) return null;
  if ((TAG_COLORS as readonly string[]).includes(value)) return value as TagColorName;
  throw invalid('color', `must be one of ${TAG_COLORS.join(', ')} (or null for the tag's own colour).`);
}
