export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * A search snippet's parts: the API puts each matched word between `[[` and `]]`, which occur only as
 * marks (docs/api.md, "Search"), so the text is split left to right at `[[` and the next `]]`. The
 * parts are shown as text nodes, never as HTML: the snippet is what people and agents wrote.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let at = 0;
  while (at < snippet.length) {
    const open = snippet.indexOf('[[', at);
    const close = open === -1 ? -1 : snippet.indexOf(']]', open + 2);
    if (open === -1 || close === -1) {
      parts.push({ text: snippet.slice(at), marked: false });
      break;
    }
    if (open > at) parts.push({ text: snippet.slice(at, open), marked: false });
    parts.push({ text: snippet.slice(open + 2, close), marked: true });
    at = close + 2;
  }
  return parts;
}

/**
 * Whether the snippet says more than the title shown beside it: a task matched by its title alone gets
 * its title as snippet, shown once rather than twice.
 */
export function snippetAddsToTitle(snippet: string, title: string): boolean {
  const text = snippetParts(snippet)
    .map((part) => part.text)
    .join('')
    .trim();
  return text !== '' && text !== title.trim();
}
