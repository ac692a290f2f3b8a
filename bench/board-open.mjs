// Board bench in Chromium: a board of 4 000 tasks in 8 lanes, opened as a person would, on the built
// server (npm run build first). Interleaved visits, medians and best, because the machine is shared.
//
//   node bench/board-open.mjs            BENCH_VISITS=5 by default
//
// Per visit: first card on screen after navigation (ms), idle (every lane's cards rendered and no
// request in flight), the board view's bytes on the wire and decoded, the JavaScript's bytes on the
// wire. Then: a keyboard move (Enter in "Move to…" until the card shows in its new lane, measured in
// the page), and the frame times while scrolling an 800-card lane (p95).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const visits = Number(process.env.BENCH_VISITS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 22000 + (process.pid % 2000));
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-board-bench-'));
const server = spawn(process.execPath, [path.join(root, 'dist/main.js')], {
  env: { ...process.env, PORT: String(port), LANEBOARD_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

try {
  for (;;) {
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  await page.goto('/');
  const { boardId, lanes } = await page.evaluate(async () => {
    const post = async (url, body) => {
      const res = await fetch(`/api/ui${url}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()).data;
    };
    await post('/setup', {
      name: 'Bench',
      email: 'bench@example.com',
      password: 'correct horse battery staple',
    });
    const board = await post('/boards', { name: 'Big' });
    const lanes = [];
    for (let l = 0; l < 8; l++)
      lanes.push((await post(`/boards/${board.id}/lanes`, { name: `Lane ${l + 1}` })).id);
    const jobs = Array.from({ length: 4000 }, (_, n) => n);
    const worker = async () => {
      for (let n = jobs.shift(); n !== undefined; n = jobs.shift()) {
        // Lane 1 holds 800 cards (the scroll test); the others share the rest.
        const lane = n < 800 ? lanes[0] : lanes[1 + (n % 7)];
        await post(`/boards/${board.id}/tasks`, { laneId: lane, title: `Task ${n + 1}`, tags: ['load'] });
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    return { boardId: board.id, lanes };
  });

  const results = [];
  for (let visit = 0; visit < visits; visit++) {
    // Interleaved with a visit to the board list, so every board visit starts from another page.
    await page.goto('/');
    await page.locator(`a[href="/boards/${boardId}"]`).waitFor();
    await page.evaluate(() => performance.clearResourceTimings());
    const started = Date.now();
    await page.goto(`/boards/${boardId}`, { waitUntil: 'commit' });
    await page.locator('[data-card-id]').first().waitFor();
    const firstCard = await page.evaluate(() => performance.now());
    await page.waitForFunction(() => !document.body.textContent.includes('Loading tasks…'));
    await page.waitForLoadState('networkidle');
    const idle = await page.evaluate(() => performance.now());
    const bytes = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource');
      const view = entries.find((e) => e.name.includes('/view'));
      const scripts = entries.filter((e) => e.name.endsWith('.js'));
      return {
        viewWire: view?.encodedBodySize ?? 0,
        viewDecoded: view?.decodedBodySize ?? 0,
        jsWire: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0),
        jsDecoded: scripts.reduce((sum, e) => sum + e.decodedBodySize, 0),
      };
    });
    results.push({ firstCard, idle, wall: Date.now() - started, ...bytes });
  }

  // Keyboard move: m on a card of lane 2, lane 3 picked, Enter; measured in the page.
  const moves = [];
  for (let move = 0; move < 3; move++) {
    const link = page.locator(`[aria-labelledby="lane-${lanes[1]}"] [data-card-id] a`).first();
    const title = await link.textContent();
    await link.focus();
    await page.keyboard.press('m');
    await page.getByRole('dialog').getByLabel('Lane').selectOption({ label: 'Lane 3' });
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).focus();
    await page.evaluate(
      ([laneId, name]) => {
        window.__moveShown = new Promise((resolve) => {
          let start = 0;
          document.addEventListener('keydown', () => (start = performance.now()), {
            capture: true,
            once: true,
          });
          const lane = document.querySelector(`[aria-labelledby="lane-${laneId}"]`);
          const seen = () =>
            [...lane.querySelectorAll('[data-card-id]')].some((c) => c.getAttribute('aria-label') === name);
          new MutationObserver((_, observer) => {
            if (start && seen()) {
              observer.disconnect();
              resolve(performance.now() - start);
            }
          }).observe(lane, { childList: true, subtree: true });
        });
      },
      [lanes[2], title],
    );
    await page.keyboard.press('Enter');
    moves.push(await page.evaluate(() => window.__moveShown));
  }

  // Scrolling the 800-card lane: frame times over 2 s of wheel scrolling.
  const scroller = page.locator(`[aria-labelledby="lane-${lanes[0]}"] .overflow-y-auto`);
  const box = await scroller.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (window.__frames.length < 400) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  for (let i = 0; i < 60; i++) await page.mouse.wheel(0, 400);
  const frames = (await page.evaluate(() => window.__frames)).slice(5).sort((a, b) => a - b);
  const p95 = frames[Math.floor(frames.length * 0.95)];

  const column = (key) => results.map((r) => r[key]);
  console.log(
    JSON.stringify(
      {
        visits,
        firstCardMs: {
          median: round(median(column('firstCard'))),
          best: round(Math.min(...column('firstCard'))),
        },
        idleMs: { median: round(median(column('idle'))), best: round(Math.min(...column('idle'))) },
        viewBytes: { wire: results[0].viewWire, decoded: results[0].viewDecoded },
        jsBytes: { wire: results[0].jsWire, decoded: results[0].jsDecoded },
        keyboardMoveMs: moves.map(round),
        laneScrollFrameP95Ms: round(p95),
      },
      null,
      2,
    ),
  );
  await browser.close();
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
