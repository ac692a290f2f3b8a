import { describe, expect, it } from 'vitest';
import { newApiKeyValue, newId, newShortId, randomString } from '../../src/lib/ids.js';

describe('ids', () => {
  it('are prefixed by kind and URL-safe', () => {
    for (const kind of ['brd', 'lane', 'task', 'cmt', 'todo', 'turn', 'wh', 'key', 'dlv', 'evt'] as const) {
      expect(newId(kind)).toMatch(new RegExp(`^${kind}_[0-9A-Za-z]{22}$`));
    }
  });

  it('sort in creation order, also when thousands are drawn in the same millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId('brd'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sort the same in a case-insensitive comparison (PostgreSQL locale collations)', () => {
    const ids = Array.from({ length: 2000 }, () => newId('cmt'));
    const collator = new Intl.Collator('en', { sensitivity: 'base' });
    expect([...ids].sort(collator.compare)).toEqual(ids);
  });

  it('keep a random part, so ids drawn together still differ beyond the sequence', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => newId('task').slice(-11)));
    expect(tails.size).toBe(1000);
  });

  it('short ids are 8 lowercase characters; API keys are ak_ + 43 base62 characters', () => {
    expect(newShortId()).toMatch(/^[0-9a-z]{8}$/);
    expect(newApiKeyValue()).toMatch(/^ak_[0-9A-Za-z]{43}$/);
    expect(new Set(Array.from({ length: 100 }, newApiKeyValue)).size).toBe(100);
  });

  it('draws characters uniformly from the alphabet', () => {
    const counts = new Map<string, number>();
    for (const ch of randomString(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(800);
      expect(n).toBeLessThan(1200);
    }
  });
});
