import { Bot, User } from 'lucide-react';
import { useState } from 'react';
import { type TurnSourceName, useTurns } from '../../api/turns';
import { Badge, Button, ErrorState, Loading, Time } from '../../components/ui';
import { anchorId } from '../../lib/task-anchor';
import { HIGHLIGHT_CLASSES, useAnchorTarget } from './use-anchor-target';

const SOURCE_NAMES: Record<TurnSourceName, string> = { claude: 'Claude', copilot: 'Copilot' };

/**
 * The agents' conversation on the task: one timeline per source, tool-only turns folded to a line,
 * each turn badged with its source. Both sources' first pages are read, and the view opens on the one
 * that has turns (Claude when both do) until the person picks one.
 */
export function Turns({ boardId, taskId }: { boardId: string; taskId: string }) {
  const [picked, setPicked] = useState<TurnSourceName | null>(null);
  const claude = useTurns(boardId, taskId, 'claude');
  const copilot = useTurns(boardId, taskId, 'copilot');
  const has = (query: typeof claude) => (query.data?.pages[0]?.data.length ?? 0) > 0;
  const source: TurnSourceName = picked ?? (has(claude) || !has(copilot) ? 'claude' : 'copilot');
  const setSource = setPicked;
  const turns = source === 'claude' ? claude : copilot;
  const all = turns.data?.pages.flatMap((page) => page.data) ?? [];
  // Opened at a turn: found when it is on the page shown (the first page of the source shown).
  const highlighted = useAnchorTarget('turn', claude.isSuccess && copilot.isSuccess);
  const anchor = (id: string) => ({
    id: anchorId('turn', id),
    tabIndex: -1,
    'data-highlighted': highlighted === id || undefined,
  });
  return (
    <section aria-labelledby="turns-heading" className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="turns-heading" className="font-semibold">
          Agent conversation
        </h2>
        <fieldset className="flex gap-3 text-sm">
          <legend className="sr-only">Source</legend>
          {(['claude', 'copilot'] as const).map((name) => (
            <label key={name} className="flex items-center gap-1">
              <input
                type="radio"
                name="turn-source"
                checked={source === name}
                onChange={() => setSource(name)}
              />
              {SOURCE_NAMES[name]}
            </label>
          ))}
        </fieldset>
      </div>
      {(claude.isPending || copilot.isPending) && <Loading label="Loading turns…" />}
      {turns.isError && <ErrorState error={turns.error} onRetry={() => turns.refetch()} />}
      {claude.isSuccess && copilot.isSuccess && all.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No captured turns from {SOURCE_NAMES[source]} (see docs/agents.md to capture them).
        </p>
      )}
      <ol className="space-y-2">
        {all.map((turn) =>
          turn.toolUseOnly ? (
            <li
              key={turn.id}
              {...anchor(turn.id)}
              className={`rounded-md text-xs text-zinc-600 dark:text-zinc-400 ${HIGHLIGHT_CLASSES}`}
            >
              <details>
                <summary className="cursor-pointer truncate">
                  <Badge tone="accent">{SOURCE_NAMES[turn.source]}</Badge> Tool use ·{' '}
                  <Time iso={turn.capturedAt} /> · {turn.content.split('\n')[0]}
                </summary>
                <pre className="mt-1 whitespace-pre-wrap break-words font-mono">{turn.content}</pre>
              </details>
            </li>
          ) : (
            <li
              key={turn.id}
              {...anchor(turn.id)}
              className={`rounded-md p-3 text-sm ${HIGHLIGHT_CLASSES} ${turn.role === 'user' ? 'bg-zinc-100 dark:bg-zinc-800' : 'border border-zinc-200 dark:border-zinc-800'}`}
            >
              <p className="mb-1 flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
                {turn.role === 'user' ? (
                  <User aria-hidden className="size-3.5" />
                ) : (
                  <Bot aria-hidden className="size-3.5" />
                )}
                <span className="font-medium">{turn.role === 'user' ? 'Person' : 'Assistant'}</span>
                <Badge tone="accent">{SOURCE_NAMES[turn.source]}</Badge>
                <Time iso={turn.capturedAt} />
              </p>
              <p className="whitespace-pre-wrap break-words">{turn.content}</p>
            </li>
          ),
        )}
      </ol>
      {turns.hasNextPage && (
        <Button busy={turns.isFetchingNextPage} onClick={() => turns.fetchNextPage()}>
          Load more
        </Button>
      )}
    </section>
  );
}
