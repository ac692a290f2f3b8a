import type { TaskListRow, TaskWithPosition } from '../../db/repositories/tasks.js';
import type { Assignee } from './task-assignees.js';

/** A task as the list shows it. `position` is null while the task is archived. */
export interface TaskSummary {
  id: string;
  shortId: string;
  title: string;
  laneId: string;
  priority: number;
  tags: string[];
  archived: boolean;
  position: number | null;
  createdAt: string;
  updatedAt: string;
  /** People and agents assigned, in the order they were assigned. */
  assignees: Assignee[];
}

/** The whole task: detail and create responses. */
export interface Task extends TaskSummary {
  description: string;
  lastTurnAt: string | null;
}

/** The fields a task update may change, with their API names. */
export interface TaskChanges {
  title?: string;
  description?: string;
  priority?: number;
  tags?: string[];
  archived?: boolean;
}

/** PATCH result: the id, every field sent with its (normalised) new value, and updatedAt. */
export type TaskUpdateResult = { id: string; updatedAt: string } & TaskChanges;

export interface TaskPlacement {
  id: string;
  laneId: string;
  position: number;
}

export function parseTags(json: string): string[] {
  return JSON.parse(json) as string[];
}

export function toTaskSummary(row: TaskListRow, assignees: Assignee[] = []): TaskSummary {
  return {
    id: row.id,
    shortId: row.short_id,
    title: row.title,
    laneId: row.lane_id,
    priority: row.priority,
    tags: parseTags(row.tags),
    archived: row.archived === 1,
    position: row.archived === 1 ? null : row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    assignees,
  };
}

export function toTask(row: TaskWithPosition, assignees: Assignee[] = []): Task {
  return { ...toTaskSummary(row, assignees), description: row.description, lastTurnAt: row.last_turn_at };
}
