import type { TaskSummary } from './references.js';

const PRIORITY_NAMES = ['none', 'low', 'medium', 'high', 'urgent'];

export function priorityName(priority: number): string {
  return PRIORITY_NAMES[priority] ?? String(priority);
}

/** One line per task: what an agent needs to pick it and refer to it again (the shortId). */
export function taskLine(task: TaskSummary, lane: string, board?: string): string {
  const parts = [`${task.shortId}: ${task.title}`, `lane "${lane}"`];
  if (board !== undefined) parts.push(`board "${board}"`);
  if (task.priority > 0) parts.push(`priority ${task.priority} (${priorityName(task.priority)})`);
  if (task.tags.length) parts.push(`tags ${task.tags.join(', ')}`);
  if (task.archived) parts.push('archived');
  return parts.join(' · ');
}

/** "Showing 1–20 of 57; pass cursor "…" for more." — lists never end silently. */
export function pageNote(offset: number, shown: number, total: number, more: string | null): string {
  if (total === 0) return 'No matches.';
  const range = shown ? `${offset + 1}–${offset + shown}` : 'none';
  return more === null
    ? `Showing ${range} of ${total}.`
    : `Showing ${range} of ${total}; call again with cursor "${more}" for more.`;
}
