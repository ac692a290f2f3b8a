import type net from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/test-app.js';

/*
 * The API reference page at /api/ext/v1/docs, in Chromium: it loads with no API key and no request to
 * any other host (every such request is failed and recorded), breaks no rule of its own CSP, and shows
 * every operation of the served document, the webhooks section's included. SQLite only: the page
 * reads the document, not the database.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('API reference page (Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('loads offline without a key and shows every operation and webhook', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/ext/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
      webhooks: Record<string, { post: { operationId: string } }>;
    };
    const operationIds = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    const webhookIds = Object.values(doc.webhooks).map((item) => item.post.operationId);
    expect(operationIds.length).toBeGreaterThan(35);

    const context = await browser.newContext();
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const foreign: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        cspViolations.push(message.text());
      }
    });

    const response = await page.goto(`${origin}/api/ext/v1/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor();
    await expect
      .poll(() => page.locator('.opblock').count(), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(operationIds.length + webhookIds.length);
    const shown = await page.locator('.opblock-summary-operation-id').allInnerTexts();
    const shownIds = new Set(shown.map((text) => text.trim()));
    expect(operationIds.filter((id) => !shownIds.has(id))).toEqual([]);
    expect(webhookIds.filter((id) => !shownIds.has(id))).toEqual([]);
    expect(await page.title()).toBe('Laneboard API reference');
    expect(foreign).toEqual([]);
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 90_000);
});
