import type { AgentWorkRow, CardRows, CountRow } from '../../db/repositories/board-view.js';
import { parseTags } from '../tasks/task-views.js';

/** How recent an agent's work must be for a card's "at work" mark (issue 26: 10 minutes). */
export const AGENT_AT_WORK_MS = 10 * 60 * 1000;

/** An agent at work on a task: its name, and when the mark lapses without further work. */
export interface AgentAtWork {
  name: string;
  /** ISO time: the agent's newest change plus the window; the mark goes away then. */
  until: string;
}

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
  /** An agent is at work on it: `atWork` is not empty. */
  agentActive: boolean;
  /**
   * The agents that worked on the task in the last 10 minutes, the most recent first: changes by an
   * agent's key (any door), changes through MCP, and captured turns.
   */
  atWork: AgentAtWork[];
  updatedAt: string;
}

/** The cut-off of the "at work" mark for a read at `now`. */
export function agentSince(now: number, windowMs = AGENT_AT_WORK_MS): string {
  return new Date(now - windowMs).toISOString();
}

/** The capture sources' names, for turns pushed with a key that is not an agent's. */
const TURN_SOURCES: Record<string, string> = { claude: 'Claude Code', copilot: 'Copilot' };

/**
 * Who did the work of one row, as the card names them: the agent; for turns captured with another key,
 * the tool they came from; else (MCP with a key of nobody or a person) the key's name.
 */
function worker(row: AgentWorkRow): { key: string; name: string } {
  if (row.actor_kind === 'agent') return { key: `agent:${row.actor_id}`, name: row.actor_name };
  if (row.turns !== null) {
    const source = turnSource(row.turns);
    return { key: `turns:${source}`, name: TURN_SOURCES[source] ?? source };
  }
  return { key: `key:${row.actor_id}`, name: row.actor_name };
}

function turnSource(data: string): string {
  try {
    const source = (JSON.parse(data) as { source?: unknown }).source;
    return typeof source === 'string' ? source : 'agent';
  } catch {
    return 'agent';
  }
}

/** Each task's agents at work, newest first, one entry per agent. */
function agentsAtWork(rows: readonly AgentWorkRow[], windowMs: number): Map<string, AgentAtWork[]> {
  const latest = new Map<string, Map<string, { name: string; at: string }>>();
  for (const row of rows) {
    const { key, name } = worker(row);
    const task = latest.get(row.task_id) ?? new Map<string, { name: string; at: string }>();
    latest.set(row.task_id, task);
    const seen = task.get(key);
    if (!seen || row.last_at > seen.at) task.set(key, { name, at: row.last_at });
  }
  const byTask = new Map<string, AgentAtWork[]>();
  for (const [taskId, workers] of latest) {
    byTask.set(
      taskId,
      [...workers.values()]
        .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.name.localeCompare(b.name)))
        .map(({ name, at }) => ({ name, until: new Date(Date.parse(at) + windowMs).toISOString() })),
    );
  }
  return byTask;
}

/** Joins the card rows with their aggregates, in the order of `rows.tasks`. */
export function toCards(rows: CardRows, windowMs = AGENT_AT_WORK_MS): Card[] {
  const todos = byTask(rows.todos);
  const comments = byTask(rows.comments);
  const assets = byTask(rows.assets);
  const atWork = agentsAtWork(rows.agentWork, windowMs);
  const assignees = new Map<string, Card['assignees']>();
  for (const { task_id, id, type, name } of rows.assignees) {
    const list = assignees.get(task_id);
    if (list) list.push({ id, type, name });
    else assignees.set(task_id, [{ id, type, name }]);
  }
  return rows.tasks.map((row): Card => {
    const todo = todos.get(row.id);
    const comment = comments.get(row.id);
    const agents = atWork.get(row.id) ?? [];
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
      agentActive: agents.length > 0,
      atWork: agents,
      updatedAt: row.updated_at,
    };
  });
}

function byTask(rows: CountRow[]): Map<string, CountRow> {
  return new Map(rows.map((row) => [row.task_id, row]));
}
