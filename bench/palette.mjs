// The command palette at size (issue 29): results within 150 ms of the last key, on the search bench's
// data (100 000 tasks, 300 000 comments, 1 000 000 turns). Seed it first and keep it:
//
//   BENCH_KEEP=1 node bench/search.mjs                    → prints "kept <data dir>"
//   BENCH_REUSE=<data dir> node bench/palette.mjs
//   BENCH_KEEP=1 BENCH_DATABASE_URL=postgres://... node bench/search.mjs      → "kept <schema>"
//   BENCH_REUSE=<schema> BENCH_DATABASE_URL=postgres://... node bench/palette.mjs
//
// The built server (npm run build first) on that database, a person signed in, Chromium. Per query:
// Ctrl+K, a word drawn from a random task's title typed as a person types (BENCH_KEY_DELAY ms between
// keys, 120 by default), and the time from the last key's input event to the first frame that shows
// the answer for the whole word (the listbox no longer busy, the status saying how many tasks). The
// palette waits for a pause in the typing before it searches (SEARCH_DEBOUNCE_MS): that is counted.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { BENCH_SECRET_KEY, schemaUrl } from './support/postgres-schema.mjs';
import { startServer, stopProcess } from './support/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reuse = process.env.BENCH_REUSE;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
if (!reuse) {
  process.stderr.write(
    'Set BENCH_REUSE to a database kept by bench/search.mjs (see the top of this file).\n',
  );
  process.exit(2);
}
const QUERIES = Number(process.env.BENCH_QUERIES ?? 40);
const KEY_DELAY = Number(process.env.BENCH_KEY_DELAY ?? 120);
const port = Number(process.env.BENCH_PORT ?? 24000 + (process.pid % 2000));
const base = `http://127.0.0.1:${port}`;
const EMAIL = 'palette-bench@example.com';
const PASSWORD = 'correct horse battery staple';

/**
 * Titles of random tasks, 2 000 of them: their words, counted, stand for the vocabulary. As in
 * bench/search.mjs, queries are words outside the 50 most common (what people look for), and the ten
 * most common are timed apart as the worst case (no stop words here).
 */
async function sampleTitles() {
  const SAMPLE = 2000;
  if (!databaseUrl) {
    const db = new Database(path.join(reuse, 'laneboard.sqlite'), { readonly: true });
    try {
      const max = db.prepare('select max(rowid) as n from tasks').get().n;
      const get = db.prepare('select title from tasks where rowid >= ? limit 1');
      return Array.from({ length: SAMPLE }, () => get.get(1 + Math.floor(Math.random() * max)).title);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select title from ${reuse}.tasks tablesample system (5) order by random() limit $1`,
      [SAMPLE],
    );
    return rows.map((r) => r.title);
  } finally {
    await client.end();
  }
}

async function sampleWords() {
  const counts = new Map();
  for (const title of await sampleTitles()) {
    for (const word of title.toLowerCase().split(/\s+/))
      if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const byCount = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a));
  // Each word once: the palette keeps answers for a few seconds, and a repeated word would be one.
  const shuffled = (from) =>
    from
      .map((w) => [Math.random(), w])
      .sort((a, b) => a[0] - b[0])
      .map(([, w]) => w);
  return {
    words: shuffled(byCount.slice(50).filter((w) => w.length >= 3)).slice(0, QUERIES),
    common: shuffled(byCount.slice(0, 10)),
  };
}

function serverEnv() {
  const env = {
    ...process.env,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LANEBOARD_RATE_LIMIT_MAX: '1000000000',
    LANEBOARD_SECRET_KEY: BENCH_SECRET_KEY,
  };
  if (databaseUrl) {
    env.DATABASE_URL = schemaUrl(databaseUrl, reuse);
  } else {
    env.LANEBOARD_DATA_DIR = reuse;
    delete env.DATABASE_URL;
  }
  return env;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const { words, common } = await sampleWords();
let server = null;
let browser;
try {
  server = await startServer({
    script: path.join(root, 'dist/main.js'),
    env: serverEnv(),
    healthUrl: `${base}/healthz`,
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ baseURL: base, viewport: { width: 1280, height: 800 } });
  await page.goto('/');
  // The first run makes the person (setup); later runs on the same database sign in.
  await page.evaluate(
    async ({ email, password }) => {
      const post = (url, body) =>
        fetch(`/api/ui${url}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const setup = await post('/setup', { name: 'Palette bench', email, password });
      if (!setup.ok) await post('/session', { email, password });
    },
    { email: EMAIL, password: PASSWORD },
  );
  await page.goto('/');
  await page.waitForFunction(() => document.title.startsWith('Boards'));
  const field = page.getByRole('dialog', { name: 'Search and commands' }).getByRole('combobox');

  /** Each word typed into a fresh palette; the time from its last key to its answer on screen. */
  const timeWords = async (list) => {
    const times = [];
    let withResults = 0;
    for (const word of list) {
      await page.keyboard.press('Control+k');
      await field.waitFor();
      await page.evaluate(() => {
        const input = document.querySelector('[role="combobox"]');
        input.addEventListener('input', () => {
          window.__lastKeyAt = performance.now();
        });
      });
      // pressSequentially waits `delay` after every key, the last one too: the last key is pressed
      // alone, so that the wait for the answer starts with it.
      await field.pressSequentially(word.slice(0, -1), { delay: KEY_DELAY });
      await page.keyboard.press(word.slice(-1));
      const shown = await page.waitForFunction(
        (typed) => {
          const input = document.querySelector('[role="combobox"]');
          const list = document.querySelector('[role="listbox"]');
          const status = document.querySelector('[role="dialog"] [role="status"]')?.textContent ?? '';
          if (input?.value !== typed || list?.getAttribute('aria-busy') === 'true') return false;
          if (!/tasks? found|No tasks match/.test(status)) return false;
          // The request for the whole word: when it left and when its answer was in, after the last key.
          const request = performance
            .getEntriesByType('resource')
            .filter(
              (e) => e.name.includes('/api/ui/search') && new URL(e.name).searchParams.get('q') === typed,
            )
            .at(-1);
          const since = (t) => (request ? t - window.__lastKeyAt : null);
          return {
            ms: performance.now() - window.__lastKeyAt,
            found: /found/.test(status),
            sentMs: since(request?.startTime),
            answeredMs: since(request?.responseEnd),
          };
        },
        word,
        { polling: 'raf', timeout: 30_000 },
      );
      const { ms, found, sentMs, answeredMs } = await shown.jsonValue();
      times.push(ms);
      if (found) withResults++;
      if (process.env.BENCH_VERBOSE)
        console.log(word, Math.round(ms), Math.round(sentMs), Math.round(answeredMs));
      await page.keyboard.press('Escape');
      await field.waitFor({ state: 'detached' });
    }
    const sorted = [...times].sort((a, b) => a - b);
    const round = (x) => Math.round(x * 10) / 10;
    return {
      queries: list.length,
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      max: round(sorted.at(-1)),
      withResults,
    };
  };

  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const result = {
    database: databaseUrl ? 'postgresql' : 'sqlite',
    keyDelayMs: KEY_DELAY,
    lastKeyToResultsMs: await timeWords(words),
    commonWordWorstCase: await timeWords(common),
    loadAverage: `${loadBefore} before, ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} after`,
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await browser?.close();
  if (server) await stopProcess(server);
}
