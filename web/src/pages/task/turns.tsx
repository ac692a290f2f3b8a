import { Bot, User } from 'lucide-react';
import { useState } from 'react';
import { type TurnSourceName, useTurns } from '../../api/turns';
import { Button, ErrorState, Loading, Time } from '../../components/ui';

/** The agents' conversation on the task: one timeline per source, tool-only turns folded to a line. */
export function Turns({ boardId, taskId }: { boardId: string; taskId: string }) {
  const [source, setSource] = useState<TurnSourceName>('claude');
  const turns = useTurns(boardId, taskId, source);
  const all = turns.data?.pages.flatMap((page) => page.data) ?? [];
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
              {name === 'claude' ? 'Claude' : 'Copilot'}
            </label>
          ))}
        </fieldset>
      </div>
      {turns.isPending && <Loading label="Loading turns…" />}
      {turns.isError && <ErrorState error={turns.error} onRetry={() => turns.refetch()} />}
      {turns.isSuccess && all.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No captured turns from {source === 'claude' ? 'Claude' : 'Copilot'} (see docs/agents.md to capture
          them).
        </p>
      )}
      <ol className="space-y-2">
        {all.map((turn) =>
          turn.toolUseOnly ? (
            <li key={turn.id} className="text-xs text-zinc-600 dark:text-zinc-400">
              <details>
                <summary className="cursor-pointer truncate">
                  Tool use · <Time iso={turn.capturedAt} /> · {turn.content.split('\n')[0]}
                </summary>
                <pre className="mt-1 whitespace-pre-wrap break-words font-mono">{turn.content}</pre>
              </details>
            </li>
          ) : (
            <li
              key={turn.id}
              className={`rounded-md p-3 text-sm ${turn.role === 'user' ? 'bg-zinc-100 dark:bg-zinc-800' : 'border border-zinc-200 dark:border-zinc-800'}`}
            >
              <p className="mb-1 flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
                {turn.role === 'user' ? (
                  <User aria-hidden className="size-3.5" />
                ) : (
                  <Bot aria-hidden className="size-3.5" />
                )}
                <span className="font-medium">{turn.role === 'user' ? 'Person' : 'Assistant'}</span>
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
