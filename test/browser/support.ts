import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
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
/** The site's owner in every test that needs only one. */
export const OWNER = { name: 'Ada Owner', email: 'ada@example.com' };

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
  return startServerWithDataDir(env);
}

/**
 * The server (`entry`, the built one by default; no build check) on a free loopback port with a fresh
 * SQLite file in a data directory of its own, removed when it is closed.
 */
export async function startServerWithDataDir(
  env: Record<string, string>,
  options: { entry?: string } = {},
): Promise<UiServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-browser-'));
  const server = await startServer(
    {
      PORT: String(await freePort()),
      LANEBOARD_DATA_DIR: dataDir,
      LANEBOARD_WEBHOOK_ALLOW_HTTP: 'true',
      LANEBOARD_WEBHOOK_ALLOW_PRIVATE: 'true',
      ...env,
    },
    options,
  );
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
    // Toasts then appear and leave without a fade (sonner honours it), so an accessibility check can
    // never meet one half-transparent: on a busy machine a toast's exit began between the wait for
    // steady toasts and axe's contrast check, which then saw its text blended into the background.
    reducedMotion: 'reduce',
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

export { expectAccessible } from './accessibility.js';

/** Sets the toasts' display ('none' hides them from a screenshot, '' shows them again). */
export async function showToasts(page: Page, display: string): Promise<void> {
  await page.evaluate((value) => {
    const doc = (
      globalThis as unknown as {
        document: { querySelectorAll(s: string): { style: { display: string } }[] };
      }
    ).document;
    for (const element of doc.querySelectorAll('[data-sonner-toaster]')) element.style.display = value;
  }, display);
}

/** A screenshot for docs/ (kept current by the suite). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Passing toasts are not part of the page: hidden for the picture, then shown again.
  await showToasts(page, 'none');
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
  await showToasts(page, '');
}

/** Creates the owner through the setup page and lands signed in. */
export async function setUpOwner(page: Page, owner = OWNER): Promise<void> {
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

/** The `data.id` of a UI API answer. */
export function createdId(answer: { body: unknown }): string {
  return (answer.body as { data: { id: string } }).data.id;
}

export interface StoredTask {
  id: string;
  title: string;
  laneId: string;
  position: number | null;
}

/** What the server holds for a board (read through the UI API, as the page's cookies allow). */
export function boardState(page: Page, boardId: string) {
  return {
    tasks: async () =>
      ((await uiApi(page, 'GET', `/boards/${boardId}/tasks`)).body as { data: StoredTask[] }).data,
    lanes: async () =>
      (
        (await uiApi(page, 'GET', `/boards/${boardId}`)).body as {
          data: { lanes: { id: string; name: string }[] };
        }
      ).data.lanes,
    /** A lane's task titles in the server's order. */
    order: async (laneName: string) => {
      const lanes = (
        (await uiApi(page, 'GET', `/boards/${boardId}`)).body as {
          data: { lanes: { id: string; name: string }[] };
        }
      ).data.lanes;
      const laneId = lanes.find((lane) => lane.name === laneName)?.id;
      return ((await uiApi(page, 'GET', `/boards/${boardId}/tasks`)).body as { data: StoredTask[] }).data
        .filter((task) => task.laneId === laneId)
        .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
        .map((task) => task.title);
    },
  };
}

/**
 * Drags `handle` with the mouse onto `target` (at `at`, relative to the target's top-left corner;
 * its centre by default), in steps, as a person would: dnd-kit starts a drag only after a move.
 */
export async function dragWithMouse(
  page: Page,
  handle: Locator,
  target: Locator,
  at?: { x: number; y: number },
): Promise<void> {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(to.x + (at?.x ?? to.width / 2), to.y + (at?.y ?? to.height / 2), { steps: 15 });
  await page.mouse.up();
}

/** How wide the page's content is: wider than the window means the page scrolls sideways. */
export async function pageOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}
