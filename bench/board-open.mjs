// Board bench in Chromium: a board of 4 000 tasks in 8 lanes, opened as a person would, on the built
// server (npm run build first). Interleaved visits, medians and best, because the machine is shared.
//
//   node bench/board-open.mjs            BENCH_VISITS=5 by default
//
// Per visit: first card on screen after navigation (ms), idle (every lane's cards rendered and no
// request in flight), the board view's bytes on the wire and decoded, the JavaScript's bytes on the
// wire. Then: a keyboard move (Enter in "Move to…" until the card shows in its new lane, measured in
// the page), and the frame times while scrolling an 800-card lane (p95).
//
// Beside those wall times, measures that a shared machine's load does not change: the main thread's CPU
// time (Chrome's Performance.getMetrics ThreadTime; script, layout and style times beside it) and how
// many components, cards and lanes React rendered (bench/board-render-probe.js, a DevTools hook), per
// move (until the card shows, and until the move's live event is applied) and per scroll frame.
// BENCH_DIST=/path/to/dist runs another build's server; BENCH_PROFILE=1 writes CPU profiles of a move and
// of the scroll to bench/results/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, stopProcess } from './support/server-process.mjs';
import { median } from './support/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const visits = Number(process.env.BENCH_VISITS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 22000 + (process.pid % 2000));
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-board-bench-'));
const dist = process.env.BENCH_DIST ?? path.join(root, 'dist');
let server = null;
const round = (x) => Math.round(x * 10) / 10;
// The probe's renders, and with BENCH_NAMES=1 the 12 components that rendered most.
const renderSummary = (counts) => {
  if (!counts) return counts;
  const { byName, ...rest } = counts;
  if (process.env.BENCH_NAMES !== '1') return rest;
  const top = Object.entries(byName)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12);
  return { ...rest, top: Object.fromEntries(top) };
};

try {
  server = await startServer({
    script: path.join(dist, 'main.js'),
    env: { ...process.env, PORT: String(port), LANEBOARD_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    healthUrl: `${base}/healthz`,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1600, height: 900 } });
  // Counts renders (bench/board-render-probe.js); marks each live `task.moved` event's arrival.
  await context.addInitScript({ path: path.join(root, 'bench/board-render-probe.js') });
  await context.addInitScript(() => {
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('task.moved', () => window.__onMoved?.());
      }
    };
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const metrics = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  // Main-thread CPU and its parts (ms) between two metrics readings.
  const cpu = (a, b) => ({
    threadMs: round((b.ThreadTime - a.ThreadTime) * 1000),
    scriptMs: round((b.ScriptDuration - a.ScriptDuration) * 1000),
    layoutMs: round((b.LayoutDuration - a.LayoutDuration) * 1000),
    styleMs: round((b.RecalcStyleDuration - a.RecalcStyleDuration) * 1000),
    layouts: b.LayoutCount - a.LayoutCount,
    styles: b.RecalcStyleCount - a.RecalcStyleCount,
  });
  const profiling = process.env.BENCH_PROFILE === '1';
  const profile = async (name, run) => {
    if (!profiling) return run();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const result = await run();
    const { profile: data } = await cdp.send('Profiler.stop');
    fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(root, `bench/results/board-${name}.cpuprofile`), JSON.stringify(data));
    return result;
  };
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

  // Keyboard move: m on a card of lane 2, lane 3 picked, Enter; measured in the page. The first moves
  // are timed alone; the last ones also count renders (the probe's tree walks cost time of their own).
  const moves = [];
  const moveCosts = [];
  const moveCount = Number(process.env.BENCH_MOVES ?? 3);
  for (let move = 0; move < moveCount * 2; move++) {
    const counted = move >= moveCount;
    const link = page.locator(`[aria-labelledby="lane-${lanes[1]}"] [data-card-id] a`).first();
    const title = await link.textContent();
    await link.focus();
    await page.keyboard.press('m');
    await page.getByRole('dialog').getByLabel('Lane').selectOption({ label: 'Lane 3' });
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).focus();
    await page.evaluate(
      ([laneId, name, counted]) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        window.__moved = new Promise((resolve) => {
          window.__onMoved = () => {
            window.__onMoved = null;
            // The event is applied in the cache, then rendered: two frames later it is on screen.
            frame()
              .then(frame)
              .then(() => resolve(counted ? window.__renders.stop() : null));
          };
        });
        window.__moveShown = new Promise((resolve) => {
          let start = 0;
          document.addEventListener(
            'keydown',
            () => {
              start = performance.now();
              if (counted) window.__renders.start();
            },
            { capture: true, once: true },
          );
          const lane = document.querySelector(`[aria-labelledby="lane-${laneId}"]`);
          const seen = () =>
            [...lane.querySelectorAll('[data-card-id]')].some((c) => c.getAttribute('aria-label') === name);
          new MutationObserver((_, observer) => {
            if (start && seen()) {
              observer.disconnect();
              const renders = counted ? { ...window.__renders.stop() } : null;
              if (counted) window.__renders.start();
              resolve({ ms: performance.now() - start, renders });
            }
          }).observe(lane, { childList: true, subtree: true });
        });
      },
      [lanes[2], title, counted],
    );
    const before = await metrics();
    const shown = await profile(`move-${move}`, async () => {
      await page.keyboard.press('Enter');
      return page.evaluate(() => window.__moveShown);
    });
    const shownMetrics = await metrics();
    const confirmed = await page.evaluate(() => window.__moved);
    if (!counted) moves.push(shown.ms);
    else
      moveCosts.push({
        shownMs: round(shown.ms),
        ...cpu(before, shownMetrics),
        rendersUntilShown: renderSummary(shown.renders),
        rendersOfLiveEvent: renderSummary(confirmed),
      });
  }

  // Scrolling the 800-card lane: frame times over 2 s of wheel scrolling; then again, counting renders.
  const scroller = page.locator(`[aria-labelledby="lane-${lanes[0]}"] .overflow-y-auto`);
  const box = await scroller.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const scroll = async (counted, direction) => {
    await page.evaluate((counted) => {
      window.__frames = [];
      if (counted) window.__renders.start();
      let last = performance.now();
      const tick = (now) => {
        window.__frames.push(now - last);
        last = now;
        if (window.__frames.length < 400) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }, counted);
    const before = await metrics();
    for (let i = 0; i < 60; i++) await page.mouse.wheel(0, 400 * direction);
    const after = await metrics();
    const { frames, renders } = await page.evaluate(() => ({
      frames: window.__frames.slice(5),
      renders: window.__renders.stop(),
    }));
    return { frames, cost: cpu(before, after), renders };
  };
  const timed = await profile('scroll', () => scroll(false, 1));
  const frames = [...timed.frames].sort((a, b) => a - b);
  const p95 = frames[Math.floor(frames.length * 0.95)];
  const perFrame = (x) => round((x / timed.frames.length) * 10) / 10;
  const countedScroll = await scroll(true, -1);

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
        keyboardMoveCosts: moveCosts,
        laneScrollFrameP95Ms: round(p95),
        laneScroll: {
          frames: timed.frames.length,
          ...timed.cost,
          perFrame: {
            threadMs: perFrame(timed.cost.threadMs),
            scriptMs: perFrame(timed.cost.scriptMs),
            layoutMs: perFrame(timed.cost.layoutMs),
            styleMs: perFrame(timed.cost.styleMs),
          },
          rendersWhileScrollingBack: {
            frames: countedScroll.frames.length,
            ...renderSummary(countedScroll.renders),
          },
        },
        loadAverage: os.loadavg().map((x) => round(x)),
      },
      null,
      2,
    ),
  );
  await browser.close();
} finally {
  if (server) await stopProcess(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
