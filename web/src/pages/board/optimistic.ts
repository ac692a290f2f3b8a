import type { BoardData } from './board-data';

/** The board with the card moved where the server will put it (dense positions), for an optimistic move. */
export function withMove(data: BoardData, taskId: string, laneId: string, position: number): BoardData {
  const card = data.tasks.find((t) => t.id === taskId);
  if (!card) return data;
  const rest = data.tasks.filter((t) => t.id !== taskId);
  const target = rest.filter((t) => t.laneId === laneId && !t.archived);
  target.splice(Math.min(position, target.length), 0, { ...card, laneId });
  const order = new Map(target.map((t, index) => [t.id, index]));
  const tasks = [...rest.filter((t) => t.laneId !== laneId || t.archived), ...target].map((t) =>
    order.has(t.id) ? { ...t, position: order.get(t.id)! } : t,
  );
  const counts = new Map<string, number>();
  for (const t of tasks) if (!t.archived) counts.set(t.laneId, (counts.get(t.laneId) ?? 0) + 1);
  return { ...data, tasks, lanes: data.lanes.map((l) => ({ ...l, taskCount: counts.get(l.id) ?? 0 })) };
}
