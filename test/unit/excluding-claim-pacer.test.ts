import { afterEach, describe, expect, it } from 'vitest';
import { ExcludingClaimPacer } from '../../src/webhooks/excluding-claim-pacer.js';
import { waitUntil } from '../support/wait.js';

function setUp() {
  let now = 1_000_000;
  const wakes: number[] = [];
  const pacer = new ExcludingClaimPacer({ now: () => now }, () => wakes.push(now));
  return { pacer, wakes, advance: (ms: number) => (now += ms) };
}

describe('ExcludingClaimPacer', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('lets one excluding claim run per 50 ms while they find something', () => {
    const { pacer, advance } = setUp();
    stop = () => pacer.stop();
    expect(pacer.mayRun()).toBe(true);
    pacer.claimed(3);
    advance(49);
    expect(pacer.mayRun()).toBe(false);
    advance(1);
    expect(pacer.mayRun()).toBe(true);
  });

  it('doubles the gap up to 1 s while they find nothing, and resets it when one finds some', () => {
    const { pacer, advance } = setUp();
    stop = () => pacer.stop();
    const gaps: number[] = [];
    expect(pacer.mayRun()).toBe(true);
    for (let i = 0; i < 7; i++) {
      pacer.claimed(0);
      let waited = 0;
      while (!pacer.mayRun()) {
        pacer.stop(); // the timer is not what this test follows; the clock is
        advance(10);
        waited += 10;
      }
      gaps.push(waited);
    }
    expect(gaps).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    pacer.claimed(1);
    advance(50);
    expect(pacer.mayRun()).toBe(true);
  });

  it('wakes the dispatcher once the gap has passed when a claim was refused', async () => {
    const { pacer, wakes } = setUp();
    stop = () => pacer.stop();
    expect(pacer.mayRun()).toBe(true);
    expect(pacer.mayRun()).toBe(false);
    expect(pacer.mayRun()).toBe(false);
    await waitUntil('the wake after the gap', async () => (wakes.length > 0 ? true : undefined), 60_000, 5);
    expect(wakes).toHaveLength(1);
    // The timer lets the next one run even though this test's clock stood still.
    expect(pacer.mayRun()).toBe(true);
  });

  it('bounds how far excluding claims look, with a full look every 5 s', () => {
    const { pacer, advance } = setUp();
    expect(pacer.scanLimit()).toBeUndefined();
    expect(pacer.scanLimit()).toBe(500);
    advance(4_999);
    expect(pacer.scanLimit()).toBe(500);
    advance(1);
    expect(pacer.scanLimit()).toBeUndefined();
    expect(pacer.scanLimit()).toBe(500);
  });
});
