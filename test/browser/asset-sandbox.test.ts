import type net from 'node:net';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, upload } from '../integration/asset-fixtures.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';

/*
 * An uploaded HTML or SVG file must never run script in the service's origin. Two defences, each
 * checked here in Chromium: `Content-Disposition: attachment` makes the browser download instead of
 * render, and `Content-Security-Policy: sandbox` (with nosniff) keeps script from running even where the
 * file is rendered anyway (a proxy that drops Content-Disposition, a browser that ignores it). A control
 * shows that the same file, served without the sandbox, does run: so the test can fail.
 * SQLite only: what is checked is the browser's handling of the response headers.
 */

const API = '/api/ext/v1';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('uploaded HTML and SVG run no script (Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  const contentUrls: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
    const { key } = await t.createKey('all');
    const board = (await t.request(key, 'POST', `${API}/boards`, { name: 'Sandbox' })).json().data.id;
    const lane = (await t.request(key, 'POST', `${API}/boards/${board}/lanes`, { name: 'L' })).json().data;
    const task = (
      await t.request(key, 'POST', `${API}/boards/${board}/tasks`, { title: 'T', laneId: lane.id })
    ).json().data;
    const assets = `${API}/boards/${board}/tasks/${task.id}/assets`;
    // Each file changes its title from a script element and from an event handler, if script runs.
    const html = `<!doctype html><title>quiet</title><script>document.title='ran';</script><img src="x" onerror="document.title='ran-onerror'">`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="document.title='ran-onload'"><title>quiet</title><script>document.title='ran';</script></svg>`;
    for (const [name, content, type] of [
      ['page.html', html, 'text/html'],
      ['image.svg', svg, 'image/svg+xml'],
    ] as const) {
      const res = await upload(t, key, assets, [filePart(name, content, type)]);
      expect(res.statusCode, res.body).toBe(201);
      contentUrls[type] = `${origin}${assets}/${res.json().data.id}/content`;
    }

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${key}` } });
    context.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each(['text/html', 'image/svg+xml'])('opening the download URL of %s downloads it', async (type) => {
    const page = await context.newPage();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.goto(contentUrls[type] as string).catch(() => null), // "Download is starting"
    ]);
    expect(download.suggestedFilename()).toBe(type === 'text/html' ? 'page.html' : 'image.svg');
    await page.close();
  });

  it.each(['text/html', 'image/svg+xml'])(
    'rendered anyway (Content-Disposition dropped), %s runs no script under the sandbox',
    async (type) => {
      for (const sandboxed of [true, false]) {
        const page = await context.newPage();
        // Fetch the real response and pass it on without Content-Disposition (and, for the control,
        // without the sandbox), as a proxy rewriting headers would.
        await page.route(contentUrls[type] as string, async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['content-disposition'];
          if (!sandboxed) delete headers['content-security-policy'];
          await route.fulfill({ response, headers });
        });
        const response = await page.goto(contentUrls[type] as string);
        expect(response?.headers()['content-security-policy']).toBe(sandboxed ? 'sandbox' : undefined);
        expect(response?.headers()['x-content-type-options']).toBe('nosniff');
        // goto waited for `load`: inline scripts, the img's onerror and the svg's onload have had their turn.
        const title = (await page.evaluate('document.title')) as string;
        await page.close();
        if (sandboxed) expect(title).toBe('quiet');
        // The control: the very same bytes do run script once the sandbox is gone.
        else expect(title).toMatch(/^ran/);
      }
    },
  );
});
