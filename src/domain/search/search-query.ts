import type { SearchTerm } from '../../db/repositories/search.js';
import { invalid } from '../errors.js';

export const MAX_QUERY_LENGTH = 200;
/** The last word is also a prefix from this many letters on. */
export const MIN_PREFIX_LENGTH = 3;

/** A word as both full-text indexes split text: letters, digits and combining marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** A term of `q`: `"a quoted phrase"` (the closing quote may be missing) or a run of non-spaces; `-` excludes. */
const TERM = /(-?)(?:"([^"]*)"?|(\S+))/gu;

/**
 * Parses `q`: every word must match, the last word also as a prefix when it ends the query; `"..."` is
 * a phrase, `-word` or `-"..."` excludes. A term with punctuation inside (`foo-bar`, `a.b`) is the
 * phrase of its words, which is how the indexes store it. Only words (letters and digits) reach the
 * full-text query, so no input can be read as query syntax.
 */
export function parseSearchQuery(q: string): SearchTerm[] {
  if (q.trim() === '') throw invalid('q', 'must not be empty.');
  // Characters as JSON Schema counts them (code points), so the route and the domain agree.
  if ([...q].length > MAX_QUERY_LENGTH) throw invalid('q', `must be at most ${MAX_QUERY_LENGTH} characters.`);
  const terms: SearchTerm[] = [];
  let lastIsPlainWord = false;
  for (const match of q.matchAll(TERM)) {
    const [, minus, phrase, word] = match;
    const tokens = ((phrase ?? word ?? '').toLowerCase().match(WORD) ?? []) as string[];
    if (tokens.length === 0) continue;
    const excluded = minus === '-';
    terms.push({ tokens, excluded, prefix: false });
    lastIsPlainWord = !excluded && phrase === undefined;
  }
  const last = terms.at(-1);
  // "Prefixes of the last word": while typing, the word at the end is usually unfinished. Not for one
  // or two letters: `a*` matches most of the vocabulary and costs as much as reading the whole index.
  const lastWord = last?.tokens.at(-1) ?? '';
  if (last && lastIsPlainWord && [...lastWord].length >= MIN_PREFIX_LENGTH) last.prefix = true;
  if (!terms.some((t) => !t.excluded)) {
    throw invalid('q', 'needs at least one word to find (letters or digits) that is not excluded.');
  }
  return terms;
}

/** The query as the index reads it, for tying a cursor to its query. */
export function canonicalQuery(terms: SearchTerm[]): string {
  return terms.map((t) => `${t.excluded ? '-' : ''}"${t.tokens.join(' ')}"${t.prefix ? '*' : ''}`).join(' ');
}
