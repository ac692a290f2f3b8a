import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import axe from 'axe-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { withBuildLock } from '../support/build-lock.js';
import { ensureBuilt, freePort, ROOT, startServer, stopServer } from '../support/built-server.js';
import { ensureWebBuilt } from '../support/web-build.js';
import { newContext, pageOverflow, SCREENSHOTS, signIn, type UiServer } from './support.js';

/**
 * The built server run from a private copy of dist/: the server lists dist/web's files when it starts,
 * and other sessions on this checkout rebuild dist/web while these long runs go on (each rebuild left
 * the running server pointing at deleted chunks: blank pages). The copy is taken under the web build's
 * lock, so it is never half-written.
 */
export async function startSnapshotServer(env: Record<string, string> = {}): Promise<UiServer> {
  ensureBuilt();
  ensureWebBuilt();
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-views-dist-'));
  withBuildLock(ROOT, 'web-build', () =>
    fs.cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true }),
  );
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-browser-'));
  const server = await startServer(
    {
      PORT: String(await freePort()),
      LANEBOARD_DATA_DIR: dataDir,
      LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
      LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
      ...env,
    },
    { entry: path.join(copy, 'dist/main.js') },
  );
  return {
    ...server,
    dataDir,
    async close() {
      await stopServer(server, 'SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(copy, { recursive: true, force: true });
    },
  };
}

/** The three ways every view is looked at: light and dark at desktop width, and a 390 px phone. */
export const MODES = [
  { name: 'light', suffix: '', options: {} },
  { name: 'dark', suffix: '-dark', options: { dark: true } },
  { name: 'phone', suffix: '-phone', options: { phone: true } },
] as const;
export type Mode = (typeof MODES)[number];

/** A signed-in page in one mode; desktop modes get a wide window, so dense boards show several lanes. */
export async function openMode(browser: Browser, baseUrl: string, mode: Mode, email: string): Promise<Page> {
  const page = await (await newContext(browser, baseUrl, mode.options)).newPage();
  // The shared test machine runs at a load of 20 and more: a step gets 30 s before it counts as broken.
  page.setDefaultTimeout(30_000);
  if (mode.name !== 'phone') await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, email);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return page;
}

/**
 * Runs axe on the page as it is: fails on a serious or critical violation, and prints any other (the
 * issue asks for none at all; the runs of 2026-11-27 printed none after the fixes), naming each with its
 * first elements.
 */
export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  // A toast fading in is checked at its final colours, not mid-animation (axe blends opacity).
  await page.waitForFunction(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): unknown[] } }).document;
    const style = globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } };
    return [...doc.querySelectorAll('[data-sonner-toast]')].every((toast) => {
      const opacity = style.getComputedStyle(toast).opacity;
      return opacity === '1' || opacity === '0';
    });
  });
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
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
  if (violations.length > 0) console.warn(`AXE ${what}: ${JSON.stringify(violations)}`);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/** At phone width the page itself never scrolls sideways (rows and lanes scroll inside their boxes). */
export async function expectNoSidewaysScroll(page: Page, mode: Mode, what: string): Promise<void> {
  if (mode.name !== 'phone') return;
  const { scrollWidth, clientWidth } = await pageOverflow(page);
  expect(scrollWidth, `${what} scrolls sideways at 390 px`).toBeLessThanOrEqual(clientWidth);
}

/**
 * A screenshot for docs/screenshots/`name``suffix`.png: the whole page, the window only (a dialog's
 * overlay covers the window, not the page), or one element. Toasts stay in the picture only when asked.
 */
export async function shoot(
  page: Page,
  name: string,
  mode: Mode,
  how: { window?: boolean; element?: Locator; toasts?: boolean } = {},
): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}${mode.suffix}.png`);
  const toasts = (display: string) =>
    page.evaluate((value) => {
      const doc = (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): { style: { display: string } }[] };
        }
      ).document;
      for (const element of doc.querySelectorAll('[data-sonner-toaster]')) element.style.display = value;
    }, display);
  if (!how.toasts) await toasts('none');
  if (how.element) await how.element.screenshot({ path: file, animations: 'disabled' });
  else await page.screenshot({ path: file, fullPage: !how.window, animations: 'disabled' });
  if (!how.toasts) await toasts('');
}

/** The three checks of one view in one mode: axe, no sideways scroll on a phone, and its picture. */
export async function checkView(
  page: Page,
  mode: Mode,
  name: string,
  how: { window?: boolean; element?: Locator; toasts?: boolean; picture?: boolean } = {},
): Promise<void> {
  await expectNoAxeViolations(page, `${name} (${mode.name})`);
  await expectNoSidewaysScroll(page, mode, name);
  if (how.picture !== false) await shoot(page, name, mode, how);
}
