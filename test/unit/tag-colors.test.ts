import { describe, expect, it } from 'vitest';
import {
  TAG_COLORS as SERVER_COLORS,
  derivedTagColor as serverDerived,
} from '../../src/domain/boards/tag-color-rules.js';
import { applyLiveEvent, tagColorsAfter } from '../../web/src/live/apply-event.js';
import {
  TAG_COLORS as WEB_COLORS,
  derivedTagColor as webDerived,
} from '../../web/src/pages/board/tag-tone.js';

const AT = '2026-11-27T10:00:00.000Z';

describe('tag colours (issue 27)', () => {
  it('has one palette and one derivation on the server and in the web UI', () => {
    expect([...WEB_COLORS]).toEqual([...SERVER_COLORS]);
    const tags = ['bug', 'ops', 'frontend', 'p1', 'Ünïcode ✓', 'x'.repeat(50), 'a', 'B'];
    for (let i = 0; i < 200; i++) tags.push(`tag-${i}`);
    for (const tag of tags) expect(webDerived(tag), tag).toBe(serverDerived(tag));
    // Gray is only ever chosen; every other colour is some tag's default.
    const derived = new Set(tags.map(serverDerived));
    expect(derived.has('gray')).toBe(false);
    expect(derived.size).toBe(SERVER_COLORS.length - 1);
  });

  it('applies a live tag.color_changed to a board snapshot, sorted by tag, null clearing', () => {
    const board = {
      board: { id: 'b', name: 'B', createdAt: AT, updatedAt: AT },
      lanes: [],
      tasks: [],
      activityId: 1,
      tagColors: [{ tag: 'ops', color: 'gray' }],
    };
    const chosen = applyLiveEvent(
      board,
      'tag.color_changed',
      {
        id: 2,
        type: 'tag.color_changed',
        boardId: 'b',
        taskId: null,
        actor: { kind: 'user', id: 'usr_1', name: 'Ada' },
        origin: 'ui',
        createdAt: AT,
        data: { tag: 'bug', color: 'red' },
      },
      false,
    );
    expect(chosen).not.toBe('reload');
    if (chosen === 'reload') return;
    expect(chosen.tagColors).toEqual([
      { tag: 'bug', color: 'red' },
      { tag: 'ops', color: 'gray' },
    ]);
    expect(chosen.activityId).toBe(2);
    expect(tagColorsAfter(chosen.tagColors ?? [], { tag: 'ops', color: null })).toEqual([
      { tag: 'bug', color: 'red' },
    ]);
    expect(tagColorsAfter([], { tag: 7 })).toBeNull();
  });
});
