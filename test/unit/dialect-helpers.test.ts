import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/dialects.js';

/** The handle `useFixture` returns stands for the value built in `beforeAll`, and only while it exists. */
describe('useFixture', () => {
  class Counter {
    #count = 0;
    label = 'counter';
    increment(): number {
      this.#count += 1;
      return this.#count;
    }
  }
  const disposed: Counter[] = [];
  const counter = useFixture(
    'the counter',
    async () => new Counter(),
    async (built) => {
      disposed.push(built);
    },
  );
  const readAtCollection = (() => {
    try {
      return counter.label;
    } catch (error) {
      return (error as Error).message;
    }
  })();

  it('throws when read before it is built', () => {
    expect(readAtCollection).toBe('the counter is used outside the tests and hooks it was built for');
  });

  it('forwards reads, writes and method calls (with private fields) to the built value', () => {
    expect(counter.label).toBe('counter');
    counter.label = 'renamed';
    expect(counter.label).toBe('renamed');
    expect(counter.increment()).toBe(1);
    const { increment } = counter;
    expect(increment()).toBe(2);
    expect('label' in counter).toBe(true);
    expect(disposed).toEqual([]);
  });

  it('is not mistaken for a promise', async () => {
    expect(await Promise.resolve(counter)).toBe(counter);
  });
});
