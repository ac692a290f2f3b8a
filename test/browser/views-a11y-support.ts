import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { withBuildLock } from '../support/build-lock.js';
import { ensureBuilt, ROOT } from '../support/built-server.js';
import { ensureWebBuilt } from '../support/web-build.js';
import {
  expectAccessible,
  newContext,
  pageOverflow,
  SCREENSHOTS,
  showToasts,
  signIn,
  startServerWithDataDir,
  type UiServer,
} from './support.js';

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
  const server = await startServerWithDataDir(env, { entry: path.join(copy, 'dist/main.js') });
  return {
    ...server,
    async close() {
      await server.close();
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
  if (!how.toasts) await showToasts(page, 'none');
  if (how.element) await how.element.screenshot({ path: file, animations: 'disabled' });
  else await page.screenshot({ path: file, fullPage: !how.window, animations: 'disabled' });
  if (!how.toasts) await showToasts(page, '');
}

/** The three checks of one view in one mode: axe, no sideways scroll on a phone, and its picture. */
export async function checkView(
  page: Page,
  mode: Mode,
  name: string,
  how: { window?: boolean; element?: Locator; toasts?: boolean; picture?: boolean } = {},
): Promise<void> {
  await expectAccessible(page, `${name} (${mode.name})`);
  await expectNoSidewaysScroll(page, mode, name);
  if (how.picture !== false) await shoot(page, name, mode, how);
}
