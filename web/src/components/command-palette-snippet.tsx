import type { SearchKind } from '../api/search';
import { SEARCH_KINDS } from '../api/search';
import { snippetParts } from './command-palette-snippet-parts';

export { snippetAddsToTitle } from './command-palette-snippet-parts';

/** A matched word: its own text colour, readable on the amber in both themes (axe color-contrast). */
const MARK = 'rounded-sm bg-amber-200 px-0.5 text-zinc-900 dark:bg-amber-700/60 dark:text-zinc-50';

/** A snippet with its matched words in <mark>. */
export function MarkedSnippet({ snippet, className = '' }: { snippet: string; className?: string }) {
  return (
    <span className={className}>
      {snippetParts(snippet).map((part, index) =>
        part.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <mark key={index} className={MARK}>
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
