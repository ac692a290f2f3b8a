import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs axe on the page as it is: fails on any serious or critical violation and prints the others,
 * naming each with its first elements. Pages come from support's newContext, which prefers reduced
 * motion: toasts then never fade, so axe cannot meet one half-transparent.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
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
