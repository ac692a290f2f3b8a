import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs axe on the page as it is: fails on any serious or critical violation and prints the others,
 * naming each with its first elements.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // A toast fading in or out is checked at its final colours, not mid-animation (axe blends opacity).
  await page.waitForFunction(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): unknown[] } }).document;
    const style = globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } };
    return [...doc.querySelectorAll('[data-sonner-toast]')].every((toast) => {
      const opacity = style.getComputedStyle(toast).opacity;
      return opacity === '1' || opacity === '0';
    });
  });
  await page.evaluate(axe.source);
  const result = await page.evaluate(async () => {
    // Runs in the page (the root tsconfig has no DOM types): axe.run's context is the whole document.
    const page = globalThis as unknown as { axe: typeof axe; document: axe.ElementContext };
    const { violations } = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  });
  if (result.length > 0) console.warn(`AXE ${what}: ${JSON.stringify(result)}`);
  const serious = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
