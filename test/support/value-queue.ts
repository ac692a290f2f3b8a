/**
 * Values pushed by callbacks (a listener, a subscriber), taken in order by a test that awaits each:
 * `next()` resolves with the oldest value not yet taken, or with the next one pushed.
 */
export function valueQueue<T>() {
  const waiting: T[] = [];
  const takers: Array<(value: T) => void> = [];
  return {
    push(value: T): void {
      const taker = takers.shift();
      if (taker) taker(value);
      else waiting.push(value);
    },
    /** Values pushed and not yet taken. */
    pending(): number {
      return waiting.length;
    },
    next(): Promise<T> {
      const value = waiting.shift();
      if (value !== undefined) return Promise.resolve(value);
      return new Promise((resolve) => takers.push(resolve));
    },
  };
}
