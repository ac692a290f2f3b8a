import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../db/repositories/search.js';

const ZERO_WIDTH_SPACE = '\u200B';

/**
 * A raw snippet (private-use characters around the matched words) as the API shows it: plain text with
 * each match between `[[` and `]]`, white space collapsed. So that a reader scanning left to right finds
 * `[[` and `]]` only as marks, brackets of the text that would form or touch one are separated by a
 * zero-width space. The text is never HTML: the web UI renders it as text nodes.
 */
export function markSnippet(raw: string): string {
  return raw
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\[(?=[[\uE000])/g, `[${ZERO_WIDTH_SPACE}`)
    .replace(/\](?=[\]\uE001])/g, `]${ZERO_WIDTH_SPACE}`)
    .replaceAll(SNIPPET_OPEN, '[[')
    .replaceAll(SNIPPET_CLOSE, ']]');
}
