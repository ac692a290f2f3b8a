import { useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { Card, Lane } from '../../api/boards';
import { sameOr } from './stable';

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
 * with `memberId`, assigned to that member. A lane whose cards did not change keeps its array from the
 * last pass, so a move or a live event re-renders the lanes it touches, not all of them (issue 27).
 */
export function useCardsByLane(
  tasks: readonly Card[] | undefined,
  filter: string,
  memberId: string | null,
): Map<string, Card[]> {
  const last = useRef(new Map<string, Card[]>());
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
    for (const [laneId, cards] of map) map.set(laneId, sameOr(last.current.get(laneId), cards));
    last.current = map;
    return map;
  }, [tasks, filter, memberId]);
}

/**
 * The lanes, each lane object kept from the last pass while its fields are the same: an optimistic move
 * or a live event rebuilds every lane's object, and a lane's memoised column should not notice.
 */
export function useStableLanes(lanes: readonly Lane[] | undefined): Lane[] {
  const last = useRef<Lane[]>([]);
  return useMemo(() => {
    const before = new Map(last.current.map((lane) => [lane.id, lane]));
    const next = (lanes ?? []).map((lane) => {
      const old = before.get(lane.id);
      return old &&
        old.name === lane.name &&
        old.position === lane.position &&
        old.taskCount === lane.taskCount
        ? old
        : lane;
    });
    last.current = sameOr(last.current, next);
    return last.current;
  }, [lanes]);
}
