import type { SearchTerm } from '../../db/repositories/search.js';

const ZERO_WIDTH_SPACE = '\u200B';
/** Words as the parser and the indexes see them. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** Words around the best match. */
export const SNIPPET_WORDS = 16;
/** Texts are read this far for a snippet (turns are indexed that far too). */
const SNIPPET_SCAN_CHARS = 100_000;

interface Word {
  start: number;
  end: number;
  folded: string;
}

/** Compared without case and accents, as SQLite's index compares. */
function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const m of text.slice(0, SNIPPET_SCAN_CHARS).matchAll(WORD)) {
    words.push({ start: m.index, end: m.index + m[0].length, folded: fold(m[0]) });
  }
  return words;
}

/** Which words the query's positive terms match (a phrase marks its words only where they follow on). */
function matchedWords(words: Word[], terms: SearchTerm[]): boolean[] {
  const marked = words.map(() => false);
  for (const term of terms) {
    if (term.excluded) continue;
    const tokens = term.tokens.map(fold);
    for (let i = 0; i + tokens.length <= words.length; i++) {
      const all = tokens.every((token, k) => {
        const word = (words[i + k] as Word).folded;
        return term.prefix && k === tokens.length - 1 ? word.startsWith(token) : word === token;
      });
      if (all) for (let k = 0; k < tokens.length; k++) marked[i + k] = true;
    }
  }
  return marked;
}

/** Makes a text's brackets unable to form or touch a mark; private-use characters are the marks' own. */
function literal(text: string): string {
  return text.replace(/[\uE000\uE001]/g, '').replace(/\s+/g, ' ');
}

/**
 * A snippet of the text that matches best (a task: its description, else its tags, else its title):
 * about SNIPPET_WORDS words around the most matches, each matched word between `[[` and `]]`, `…` where
 * text was cut. Plain text: brackets of the text that would form or touch a mark are separated by a
 * zero-width space, so a reader splitting left to right finds `[[` and `]]` only as marks.
 */
export function buildSnippet(texts: string[], terms: SearchTerm[]): string {
  let best: { text: string; words: Word[]; marked: boolean[]; count: number } | null = null;
  // The last text first: a task's description, then tags, then title (the title is shown anyway).
  for (const text of [...texts].reverse()) {
    const words = wordsOf(text);
    const marked = matchedWords(words, terms);
    const count = marked.filter(Boolean).length;
    if (best === null || count > best.count) best = { text, words, marked, count };
  }
  if (best === null || best.words.length === 0) return '';
  const { text, words, marked } = best;

  // The window of SNIPPET_WORDS words holding the most matches, starting a little before its first.
  let from = 0;
  let inWindow = 0;
  let bestCount = -1;
  for (let i = 0; i < words.length; i++) {
    if (marked[i]) inWindow++;
    if (i >= SNIPPET_WORDS && marked[i - SNIPPET_WORDS]) inWindow--;
    if (inWindow > bestCount) {
      bestCount = inWindow;
      from = Math.max(0, i - SNIPPET_WORDS + 1);
    }
  }
  const firstMark = marked.indexOf(true, from);
  if (firstMark > from + 2) from = Math.max(0, Math.min(firstMark - 2, words.length - SNIPPET_WORDS));
  const to = Math.min(words.length, from + SNIPPET_WORDS);

  let out = from > 0 ? '… ' : '';
  let at = (words[from] as Word).start;
  for (let i = from; i < to; i++) {
    const word = words[i] as Word;
    out += literal(text.slice(at, word.start));
    const piece = literal(text.slice(word.start, word.end));
    out += marked[i] ? `\uE000${piece}\uE001` : piece;
    at = word.end;
  }
  // Punctuation right after the last word (a full stop), then `…` when text follows.
  const tail = text.slice(at, at + 1);
  if (/[^\s\p{L}\p{N}]/u.test(tail)) out += literal(tail);
  if (to < words.length) out += ' …';
  return toMarks(out.trim());
}

/** Private-use marks to `[[`/`]]`, after separating the text's brackets that would form or touch one. */
export function toMarks(raw: string): string {
  return raw
    .replace(/\[(?=[[\uE000])/g, `[${ZERO_WIDTH_SPACE}`)
    .replace(/\](?=[\]\uE001])/g, `]${ZERO_WIDTH_SPACE}`)
    .replaceAll('\uE000', '[[')
    .replaceAll('\uE001', ']]');
}
