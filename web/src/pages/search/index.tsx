import { Link } from 'react-router';
import { useBoards } from '../../api/boards';
import { type SearchResult, useSearchResults } from '../../api/search';
import { KindBadge, MarkedSnippet, snippetAddsToTitle } from '../../components/command-palette-snippet';
import { Button, EmptyState, ErrorState, Loading, PageHeader } from '../../components/ui';
import { searchItem, taskHref } from '../../lib/task-anchor';
import { SearchForm, useSearchFilters } from './search-filters';

function ResultRow({ result, boardName }: { result: SearchResult; boardName: string | undefined }) {
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <KindBadge kind={result.kind} />
        <Link
          // A comment, todo or turn opens the task at it.
          to={taskHref(result.boardId, result.taskId, searchItem(result))}
          className="min-w-0 font-medium hover:underline"
        >
          <span className="mr-1.5 font-mono text-xs text-zinc-500 dark:text-zinc-400">{result.shortId}</span>
          {result.title}
        </Link>
        {boardName && (
          <Link
            to={`/boards/${result.boardId}`}
            className="text-xs text-zinc-600 hover:underline sm:ml-auto dark:text-zinc-400"
          >
            {boardName}
          </Link>
        )}
      </div>
      {snippetAddsToTitle(result.snippet, result.title) && (
        <MarkedSnippet
          snippet={result.snippet}
          className="mt-1 block text-sm break-words text-zinc-700 dark:text-zinc-300"
        />
      )}
    </li>
  );
}

/** /search: every match of the words, filtered by board, kind and assignee, 20 at a time. */
export default function SearchPage() {
  const [filters, change] = useSearchFilters();
  const boards = useBoards();
  const results = useSearchResults(filters);
  const boardNames = new Map((boards.data ?? []).map((board) => [board.id, board.name]));
  const shown = results.data?.pages.flatMap((page) => page.data) ?? [];
  const q = filters.q.trim();

  return (
    <>
      <PageHeader title="Search" description="Tasks, comments, todos and agent turns of your boards." />
      <SearchForm filters={filters} change={change} boards={boards.data ?? []} />
      {q === '' ? (
        <EmptyState title="Type the words to look for.">
          Every word must match, the last one also as the start of a word; “quoted words” match as a phrase
          and -word leaves texts out. Ctrl+K (⌘K) searches from any page.
        </EmptyState>
      ) : results.isPending ? (
        <Loading label="Searching…" />
      ) : results.isError && shown.length === 0 ? (
        <ErrorState error={results.error} onRetry={() => results.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title={`Nothing matches “${q}”.`}>
          Try fewer words, another filter, or “Archived too”.
        </EmptyState>
      ) : (
        <section aria-label="Results">
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {shown.length} {shown.length === 1 ? 'result' : 'results'}
            {results.hasNextPage ? ' shown, more below' : ''}
          </p>
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {shown.map((result, index) => (
              <ResultRow
                // Pages only append, and one task may match twice alike (two todos): the place is the key.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                result={result}
                boardName={boardNames.get(result.boardId)}
              />
            ))}
          </ul>
          {results.hasNextPage && (
            <Button
              className="mt-3"
              busy={results.isFetchingNextPage}
              onClick={() => results.fetchNextPage()}
            >
              Show more
            </Button>
          )}
          {results.isFetchNextPageError && (
            <ErrorState error={results.error} onRetry={() => results.fetchNextPage()} />
          )}
        </section>
      )}
    </>
  );
}
