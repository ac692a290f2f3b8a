import type { TaskRow } from '../../db/schema.js';
import { invalid } from '../errors.js';
import { LIMITS, normaliseTags, optionalText, requiredText } from '../text-rules.js';
import { parseTags, type TaskChanges } from './task-views.js';

export const MAX_PRIORITY = 4;

export function checkPriority(priority: number): number {
  if (!Number.isInteger(priority) || priority < 0 || priority > MAX_PRIORITY) {
    throw invalid('priority', `must be an integer from 0 to ${MAX_PRIORITY}.`);
  }
  return priority;
}

/** Validates and normalises (trims, de-duplicates tags) each field that was sent. */
export function normaliseTaskChanges(input: TaskChanges): TaskChanges {
  const out: TaskChanges = {};
  if (input.title !== undefined) out.title = requiredText('title', input.title, LIMITS.taskTitle);
  if (input.description !== undefined) {
    out.description = optionalText('description', input.description, LIMITS.taskDescription);
  }
  if (input.priority !== undefined) out.priority = checkPriority(input.priority);
  if (input.tags !== undefined) out.tags = normaliseTags(input.tags);
  if (input.archived !== undefined) out.archived = input.archived;
  return out;
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, i) => tag === b[i]);
}

/** The subset of `wanted` whose values differ from the stored task. */
export function changedFields(task: TaskRow, wanted: TaskChanges): TaskChanges {
  const changes: TaskChanges = {};
  if (wanted.title !== undefined && wanted.title !== task.title) changes.title = wanted.title;
  if (wanted.description !== undefined && wanted.description !== task.description) {
    changes.description = wanted.description;
  }
  if (wanted.priority !== undefined && wanted.priority !== task.priority) changes.priority = wanted.priority;
  if (wanted.tags !== undefined && !sameTags(wanted.tags, parseTags(task.tags))) changes.tags = wanted.tags;
  if (wanted.archived !== undefined && wanted.archived !== (task.archived === 1)) {
    changes.archived = wanted.archived;
  }
  return changes;
}
