import { useEffect, useState } from 'react';
import type { Card } from '../../api/boards';

type AtWork = NonNullable<Card['atWork']>;

/**
 * The agents still at work at this moment, and a re-render when the next of them lapses: the server
 * sends when each mark ends (`until`), so it goes away on time without a new read or event.
 */
function useStillAtWork(atWork: AtWork): AtWork {
  const [now, setNow] = useState(() => Date.now());
  const current = atWork.filter((agent) => Date.parse(agent.until) > now);
  const next = Math.min(...current.map((agent) => Date.parse(agent.until)));
  // A mark that lapsed since the last tick is still in `current`: its timer is then due at once.
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(next - Date.now(), 0) + 50);
    return () => clearTimeout(timer);
  }, [next]);
  return current;
}

/** "Claude at work" on a card while an agent has worked on the task in the last 10 minutes. */
export function AtWorkMark({ atWork }: { atWork: AtWork }) {
  const current = useStillAtWork(atWork);
  const [first, ...others] = current.map((agent) => agent.name);
  if (first === undefined) return null;
  const names = [first, ...others].join(', ');
  // A line of its own under the card's meta line, so a long name or many tags never hide it.
  return (
    <div className="mt-1 flex min-w-0 text-xs">
      <span
        data-at-work
        title={`${names}: worked on it in the last 10 minutes`}
        className="inline-flex min-w-0 items-center gap-1 rounded-full bg-accent-50 px-1.5 py-px font-medium text-accent-700 dark:bg-zinc-800 dark:text-accent-400"
      >
        <span
          aria-hidden
          className="size-1.5 shrink-0 animate-pulse rounded-full bg-accent-600 dark:bg-accent-400"
        />
        <span className="truncate">{first}</span>
        {others.length > 0 && <span className="shrink-0">+{others.length}</span>}
        <span className="shrink-0"> at work</span>
        <span className="sr-only">{others.length > 0 ? ` (${names})` : ''}</span>
      </span>
    </div>
  );
}
