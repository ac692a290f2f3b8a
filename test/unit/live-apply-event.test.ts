import { describe, expect, it } from 'vitest';
import type { BoardView, Card } from '../../web/src/api/board-view.js';
import { applyLiveEvent, type LiveActivity } from '../../web/src/live/apply-event.js';

const AT = '2026-11-27T10:00:00.000Z';

const card = (id: string, laneId: string, position: number | null, extra: Partial<Card> = {}): Card => ({
  id,
  shortId: id.toUpperCase(),
  title: id,
  laneId,
  position,
  priority: 0,
  tags: [],
  archived: position === null,
  todos: { done: 0, total: 0 },
  commentCount: 0,
  assetCount: 0,
  agentActive: false,
  assignees: [],
  atWork: [],
  updatedAt: AT,
  ...extra,
});

function board(): BoardView<Card> {
  return {
    board: { id: 'brd', name: 'Board', createdAt: AT, updatedAt: AT },
    lanes: [
      { id: 'todo', name: 'Todo', position: 0, taskCount: 3 },
      { id: 'done', name: 'Done', position: 1, taskCount: 1 },
    ],
    tasks: [card('a', 'todo', 0), card('b', 'todo', 1), card('c', 'todo', 2), card('d', 'done', 0)],
    tagColors: [],
    activityId: 10,
  };
}

const activity = (id: number, type: string, extra: Partial<LiveActivity> = {}): LiveActivity => ({
  id,
  type,
  boardId: 'brd',
  taskId: null,
  actor: { kind: 'user', id: 'usr_1', name: 'Ada' },
  origin: 'ui',
  data: {},
  createdAt: AT,
  ...extra,
});

const layout = (data: BoardView<Card> | 'reload') =>
  data === 'reload'
    ? data
    : Object.fromEntries(
        data.lanes.map((lane) => [
          lane.id,
          data.tasks
            .filter((t) => t.laneId === lane.id && !t.archived)
            .sort((x, y) => (x.position ?? 0) - (y.position ?? 0))
            .map((t) => `${t.id}${t.position}`),
        ]),
      );

describe('applying live events to a board view', () => {
  it('moves a card across lanes and keeps both lanes dense, with counts', () => {
    const moved = card('a', 'done', 1);
    const next = applyLiveEvent(
      board(),
      'task.moved',
      activity(11, 'task.moved', { taskId: 'a', card: moved }),
      false,
    );
    expect(layout(next)).toEqual({ todo: ['b0', 'c1'], done: ['d0', 'a1'] });
    expect(next !== 'reload' && next.lanes.map((l) => l.taskCount)).toEqual([2, 2]);
    expect(next !== 'reload' && next.activityId).toBe(11);
    // The same event again changes nothing.
    const twice =
      next === 'reload'
        ? next
        : applyLiveEvent(next, 'task.moved', activity(11, 'task.moved', { taskId: 'a', card: moved }), false);
    expect(layout(twice)).toEqual(layout(next));
  });

  it('adds, updates, archives and removes cards', () => {
    let data: BoardView<Card> | 'reload' = board();
    const apply = (type: string, extra: Partial<LiveActivity>, archived = false) => {
      if (data !== 'reload') data = applyLiveEvent(data, type, activity(12, type, extra), archived);
    };
    apply('task.created', { taskId: 'e', card: card('e', 'todo', 3) });
    apply('comment.created', { taskId: 'b', card: card('b', 'todo', 1, { commentCount: 2 }) });
    apply('task.updated', { taskId: 'a', card: card('a', 'todo', null) });
    apply('task.deleted', { taskId: 'd', card: null });
    expect(layout(data)).toEqual({ todo: ['b0', 'c1', 'e2'], done: [] });
    expect((data as BoardView<Card>).tasks.find((t) => t.id === 'b')?.commentCount).toBe(2);
    expect((data as BoardView<Card>).tasks.some((t) => t.id === 'a')).toBe(false);
    const shown = applyLiveEvent(
      board(),
      'task.updated',
      activity(13, 'task.updated', { taskId: 'a', card: card('a', 'todo', null) }),
      true,
    );
    expect(shown !== 'reload' && shown.tasks.find((t) => t.id === 'a')?.archived).toBe(true);
    expect(layout(shown)).toEqual({ todo: ['b0', 'c1'], done: ['d0'] });
  });

  it('replaces lanes, drops the tasks of a deleted lane, renames the board, reloads on reset', () => {
    const lanes = [{ id: 'todo', name: 'Backlog', position: 0 }];
    const next = applyLiveEvent(board(), 'lane.deleted', activity(14, 'lane.deleted', { lanes }), false);
    expect(next !== 'reload' && next.lanes).toEqual([
      { id: 'todo', name: 'Backlog', position: 0, taskCount: 3 },
    ]);
    expect(next !== 'reload' && next.tasks.map((t) => t.id)).toEqual(['a', 'b', 'c']);
    const renamed = applyLiveEvent(
      board(),
      'board.updated',
      activity(15, 'board.updated', { data: { board: { name: 'New' } } }),
      false,
    );
    expect(renamed !== 'reload' && renamed.board.name).toBe('New');
    expect(applyLiveEvent(board(), 'reset', null, false)).toBe('reload');
    expect(applyLiveEvent(board(), 'board.deleted', activity(16, 'board.deleted'), false)).toBe('reload');
  });
});
