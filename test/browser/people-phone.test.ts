import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, type OwnerWorld, openOwnerWorld } from './fixtures.js';
import { expectAccessible, pageOverflow, screenshot } from './support.js';

/** One word with no place to break it: a name like this once pushed the page 45 px past a phone's edge. */
const LONG_NAME = 'Maximilianawolkensteinrodeneggvontrostburg';
const PEOPLE = [
  { name: 'Mia Owner', email: 'mia@example.com' },
  { name: LONG_NAME, email: 'maximiliana.wolkenstein@example.com' },
] as const;

describe('Settings › People on a phone (390 px)', { timeout: 60_000 }, () => {
  let world: OwnerWorld;
  let page: Page;

  beforeAll(async () => {
    const [owner, member] = PEOPLE;
    world = await openOwnerWorld({ owner, phone: true });
    ({ page } = world);
    // The second person joins through an invite, in a context of their own.
    await addMember(world, page, member);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('shows every email in full and never scrolls sideways, even for a long unbreakable name', async () => {
    await page.goto('/settings/people');
    await page.getByRole('listitem', { name: LONG_NAME }).waitFor();
    const overflow = await pageOverflow(page);
    expect(overflow.scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(overflow.clientWidth);
    for (const person of PEOPLE) {
      const email = page
        .getByRole('listitem', { name: person.name })
        .getByText(person.email, { exact: true });
      // Not cut with an ellipsis: the text fits its box, and the box fits the screen.
      const fits = await email.evaluate((element) => element.scrollWidth <= element.clientWidth);
      expect(fits, `${person.email} is cut`).toBe(true);
      const box = await email.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    // The role picker and Deactivate stay on screen too.
    const controls = page.getByRole('button', { name: `Deactivate ${LONG_NAME}` });
    const controlsBox = await controls.boundingBox();
    expect(controlsBox!.x + controlsBox!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'settings-people-phone');
    await expectAccessible(page, 'people page on a phone');
  });
});
