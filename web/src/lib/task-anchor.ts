/** The texts of a task the web UI can open it at: each has an element id on the task page. */
export type TaskItemKind = 'comment' | 'todo' | 'turn';

/** The element id of a comment, todo or turn on the task page (`comment-cmt_...`): the address's fragment. */
export const anchorId = (kind: TaskItemKind, id: string) => `${kind}-${id}`;

/**
 * A task's address in the web UI, opened at one of its comments, todos or turns when one is given
 * (`/boards/B/tasks/T#comment-cmt_...`): the task page scrolls there and highlights it.
 */
export function taskHref(
  boardId: string,
  taskId: string,
  item?: { kind: TaskItemKind; id: string } | null,
): string {
  const path = `/boards/${boardId}/tasks/${taskId}`;
  return item ? `${path}#${anchorId(item.kind, item.id)}` : path;
}

/** The item a search result points at: its comment, todo or turn (a task's own text has none). */
export function searchItem(result: {
  kind: 'task' | TaskItemKind;
  itemId: string | null;
}): { kind: TaskItemKind; id: string } | null {
  return result.kind === 'task' || result.itemId === null ? null : { kind: result.kind, id: result.itemId };
}
