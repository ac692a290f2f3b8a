import { describe, expect, it } from 'vitest';
import { clampInsertPosition, moveWithinList, rankBetween } from '../../src/domain/positions.js';

describe('clampInsertPosition', () => {
  it.each([
    { requested: undefined, count: 0, expected: 0 },
    { requested: undefined, count: 3, expected: 3 },
    { requested: 0, count: 3, expected: 0 },
    { requested: 2, count: 3, expected: 2 },
    { requested: 3, count: 3, expected: 3 },
    { requested: 4, count: 3, expected: 3 },
    { requested: 1_000_000, count: 3, expected: 3 },
    { requested: -1, count: 3, expected: 0 },
  ])('inserting at $requested into $count items lands at $expected', ({ requested, count, expected }) => {
    expect(clampInsertPosition(requested, count)).toBe(expected);
  });
});

describe('moveWithinList', () => {
  it('moving down shifts the items in between up by one', () => {
    expect(moveWithinList(1, 3, 5)).toEqual({ to: 3, shift: { from: 2, to: 3, delta: -1 } });
  });

  it('moving up shifts the items in between down by one', () => {
    expect(moveWithinList(3, 0, 5)).toEqual({ to: 0, shift: { from: 0, to: 2, delta: 1 } });
  });

  it('a position past the end means last', () => {
    expect(moveWithinList(0, 99, 4)).toEqual({ to: 3, shift: { from: 1, to: 3, delta: -1 } });
    expect(moveWithinList(1, 4, 4)).toEqual({ to: 3, shift: { from: 2, to: 3, delta: -1 } });
  });

  it('moving to the same place, or the last item past the end, moves nothing', () => {
    expect(moveWithinList(2, 2, 5)).toEqual({ to: 2, shift: null });
    expect(moveWithinList(4, 10, 5)).toEqual({ to: 4, shift: null });
    expect(moveWithinList(0, 0, 1)).toEqual({ to: 0, shift: null });
  });

  it('without a requested position the item goes last', () => {
    expect(moveWithinList(0, undefined, 3)).toEqual({ to: 2, shift: { from: 1, to: 2, delta: -1 } });
  });

  it('negative positions are clamped to the start', () => {
    expect(moveWithinList(2, -5, 3)).toEqual({ to: 0, shift: { from: 0, to: 1, delta: 1 } });
  });

  it('applying every possible move to a dense list keeps it a permutation of 0..n-1', () => {
    const count = 6;
    for (let from = 0; from < count; from++) {
      for (let requested = 0; requested < count + 2; requested++) {
        const positions = Array.from({ length: count }, (_, i) => i);
        const { to, shift } = moveWithinList(from, requested, count);
        const moved = positions.map((p) => {
          if (p === from) return to;
          if (shift && p >= shift.from && p <= shift.to) return p + shift.delta;
          return p;
        });
        expect([...moved].sort((a, b) => a - b)).toEqual(positions);
        expect(moved[from]).toBe(Math.min(requested, count - 1));
      }
    }
  });
});

describe('rankBetween', () => {
  it('takes the midpoint of two neighbours, or one below the first task', () => {
    expect(rankBetween(1, 2)).toBe(1.5);
    expect(rankBetween(undefined, 5)).toBe(4);
    expect(rankBetween(-3, -2)).toBe(-2.5);
  });

  it('reports no room when no double lies strictly between the neighbours', () => {
    expect(rankBetween(1, 1)).toBeNull();
    expect(rankBetween(1, 1 + Number.EPSILON)).toBeNull();
    expect(rankBetween(2 ** 53, 2 ** 53 + 2)).toBeNull();
    expect(rankBetween(2 ** 53, 2 ** 53 + 4)).toBe(2 ** 53 + 2);
  });

  it('runs out after about 50 halvings of a gap of one', () => {
    let after = 2;
    let halvings = 0;
    for (let rank = rankBetween(1, after); rank !== null; rank = rankBetween(1, after)) {
      after = rank;
      halvings++;
    }
    expect(halvings).toBe(52);
  });
});
