import type { SearchKind } from '../api/search';
import { SEARCH_KINDS } from '../api/search';

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

/** A snippet with its matched words in <mark>. */
export function MarkedSnippet({ snippet, className = '' }: { snippet: string; className?: string }) {
  return (
    <span className={className}>
      {snippetParts(snippet).map((part, index) =>
        part.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-inherit dark:bg-amber-700/60">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}

const KIND_LABELS = new Map(SEARCH_KINDS);

/** What matched: a small badge (Task, Comment, Todo, Agent turn). */
export function KindBadge({ kind }: { kind: SearchKind }) {
  return (
    <span className="inline-flex shrink-0 items-center rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700">
      {KIND_LABELS.get(kind) ?? kind}
    </span>
  );
}
