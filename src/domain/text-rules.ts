import { LIMITS } from '../schemas/limits.js';
import { invalid } from './errors.js';

export { LIMITS };

/** Trims and checks a required, non-empty text field. */
export function requiredText(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw invalid(field, 'must not be empty.');
  if (trimmed.length > max) throw invalid(field, `must be at most ${max} characters long.`);
  return trimmed;
}

/** Trims and checks a text field that may be empty. */
export function optionalText(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed.length > max) throw invalid(field, `must be at most ${max} characters long.`);
  return trimmed;
}

/** Normalises tags: trimmed, 1..50 characters each, at most 50, duplicates removed (first wins). */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const trimmed = tag.trim();
    if (trimmed.length === 0 || trimmed.length > LIMITS.tagLength) {
      throw invalid('tags', `must each be 1 to ${LIMITS.tagLength} characters long.`);
    }
    seen.add(trimmed);
  }
  if (seen.size > LIMITS.tagCount) throw invalid('tags', `must hold at most ${LIMITS.tagCount} tags.`);
  return [...seen];
}
