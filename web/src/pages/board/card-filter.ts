import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { Card } from '../../api/boards';

/**
 * The "assigned to me" toggle, kept in the address (`?assignee=me`, as the external API's task list
 * names it) so a reload, a bookmark or a shared link keeps it. Replaces the history entry: toggling is
 * not a page to go back to.
 */
export function useAssignedToMe(): [boolean, (on: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const on = params.get('assignee') === 'me';
  const set = (next: boolean) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next) copy.set('assignee', 'me');
        else copy.delete('assignee');
        return copy;
      },
      { replace: true },
    );
  return [on, set];
}

/**
 * The cards each lane shows, in order: those matching the filter text (title, shortId or a tag) and,
 * with `memberId`, assigned to that member.
 */
export function useCardsByLane(
  tasks: readonly Card[] | undefined,
  filter: string,
  memberId: string | null,
): Map<string, Card[]> {
  return useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const map = new Map<string, Card[]>();
    for (const card of tasks ?? []) {
      if (memberId !== null && !card.assignees?.some((a) => a.id === memberId)) continue;
      const match =
        !needle ||
        card.title.toLowerCase().includes(needle) ||
        card.shortId.toLowerCase().includes(needle) ||
        card.tags.some((tag) => tag.toLowerCase().includes(needle));
      if (!match) continue;
      const list = map.get(card.laneId);
      if (list) list.push(card);
      else map.set(card.laneId, [card]);
    }
    return map;
  }, [tasks, filter, memberId]);
}
