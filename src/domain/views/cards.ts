import type { CardRows, CountRow } from '../../db/repositories/board-view.js';
import { parseTags } from '../tasks/task-views.js';

/** How recent an agent's work must be for a card's "agent active" mark. */
export const AGENT_ACTIVE_WINDOW_MS = 60 * 60 * 1000;

/** A task as its card on the board shows it. */
export interface Card {
  id: string;
  shortId: string;
  title: string;
  laneId: string;
  /** Dense index among the lane's non-archived tasks; null while archived. */
  position: number | null;
  priority: number;
  tags: string[];
  archived: boolean;
  todos: { done: number; total: number };
  commentCount: number;
  assetCount: number;
  /** Who the task is assigned to, in the order they were assigned. */
  assignees: Array<{ id: string; type: 'person' | 'agent'; name: string }>;
  /** An agent worked on the task in the last hour (turns captured, MCP changes, agent comments or todos). */
  agentActive: boolean;
  updatedAt: string;
}

/** The cut-off of the "agent active" mark for a read at `now`. */
export function agentSince(now: number): string {
  return new Date(now - AGENT_ACTIVE_WINDOW_MS).toISOString();
}

/** Joins the card rows with their aggregates, in the order of `rows.tasks`. */
export function toCards(rows: CardRows, since: string): Card[] {
  const todos = byTask(rows.todos);
  const comments = byTask(rows.comments);
  const assets = byTask(rows.assets);
  const agentTasks = new Set(rows.agentTaskIds);
  const assignees = new Map<string, Card['assignees']>();
  for (const { task_id, id, type, name } of rows.assignees) {
    const list = assignees.get(task_id);
    if (list) list.push({ id, type, name });
    else assignees.set(task_id, [{ id, type, name }]);
  }
  return rows.tasks.map((row): Card => {
    const todo = todos.get(row.id);
    const comment = comments.get(row.id);
    const agentAt = [row.last_turn_at, todo?.last_agent_at, comment?.last_agent_at];
    return {
      id: row.id,
      shortId: row.short_id,
      title: row.title,
      laneId: row.lane_id,
      position: row.archived === 1 ? null : row.position,
      priority: row.priority,
      tags: parseTags(row.tags),
      archived: row.archived === 1,
      todos: { done: Number(todo?.done ?? 0), total: Number(todo?.total ?? 0) },
      commentCount: Number(comment?.total ?? 0),
      assetCount: Number(assets.get(row.id)?.total ?? 0),
      assignees: assignees.get(row.id) ?? [],
      agentActive: agentTasks.has(row.id) || agentAt.some((at) => at != null && at >= since),
      updatedAt: row.updated_at,
    };
  });
}

function byTask(rows: CountRow[]): Map<string, CountRow> {
  return new Map(rows.map((row) => [row.task_id, row]));
}
