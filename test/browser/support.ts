import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  ensureBuilt,
  freePort,
  ROOT,
  type RunningServer,
  startServer,
  stopServer,
} from '../support/built-server.js';
import { ensureWebBuilt } from '../support/web-build.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.join(ROOT, 'docs/screenshots');
export const PASSWORD = 'correct horse battery staple';

/** One browser per test file (starting one takes seconds on a busy machine). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface UiServer extends RunningServer {
  dataDir: string;
  close(): Promise<void>;
}

/** The built server on a free loopback port with a fresh SQLite file. */
export async function startUiServer(env: Record<string, string> = {}): Promise<UiServer> {
  ensureBuilt();
  ensureWebBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-browser-'));
  const server = await startServer({
    PORT: String(await freePort()),
    LANEBOARD_DATA_DIR: dataDir,
    LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
    LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
  return {
    ...server,
    dataDir,
    async close() {
      await stopServer(server, 'SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A context at phone or desktop width; clipboard allowed so "Copy" works. */
export async function newContext(
  browser: Browser,
  baseURL: string,
  options: { phone?: boolean; dark?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    colorScheme: options.dark ? 'dark' : 'light',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  // A step that waits longer than this is broken, not slow: fail with its locator well before the test's limit.
  context.setDefaultTimeout(10_000);
  return context;
}

/** Calls the UI's internal API from the page's context (its cookies), as the browser would. */
export async function uiApi(
  page: Page,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, urlPath, body }) => {
      const res = await fetch(`/api/ui${urlPath}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { method, urlPath, body },
  );
}

/** Runs axe on the page as it is and fails on any serious or critical violation, naming them. */
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
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  const serious = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/** A screenshot for docs/ (kept current by the suite). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Passing toasts are not part of the page: hidden for the picture, then shown again.
  const toasts = (display: string) =>
    page.evaluate((value) => {
      const doc = (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): { style: { display: string } }[] };
        }
      ).document;
      for (const element of doc.querySelectorAll('[data-sonner-toaster]')) element.style.display = value;
    }, display);
  await toasts('none');
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
  await toasts('');
}

/** Creates the owner through the setup page and lands signed in. */
export async function setUpOwner(
  page: Page,
  owner = { name: 'Ada Owner', email: 'ada@example.com' },
): Promise<void> {
  await page.goto('/');
  await page.waitForURL('**/setup');
  await page.getByLabel('Name').fill(owner.name);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create owner account' }).click();
  await page.waitForURL('**/settings/keys');
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Picks up a sortable item with the keyboard (Space) and waits until arrow keys move it: the pick-up's
 * announcement, then a timer in the page. dnd-kit's keyboard sensor starts listening for arrows in a
 * timer after the pick-up, and a timer queued after the announcement runs after it; without this, an
 * arrow pressed at once was lost on a loaded machine and the item stayed where it was.
 */
export async function pickUpWithKeyboard(page: Page, announcement: string | RegExp): Promise<void> {
  await page.keyboard.press('Space');
  await page.getByText(announcement).first().waitFor({ state: 'attached' });
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}
