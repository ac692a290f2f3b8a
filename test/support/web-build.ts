import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './built-server.js';

export const WEB_DIST = path.join(ROOT, 'dist/web');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** `npm run build:web` when dist/web is missing or older than web/ (CI builds on install: usually a no-op). */
export function ensureWebBuilt(): void {
  const index = path.join(WEB_DIST, 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  if (built >= newestMtime(path.join(ROOT, 'web'))) return;
  // Vitest sets NODE_ENV=test, which would make Vite emit a development build (larger, jsx-dev-runtime):
  // build what users get.
  execFileSync('npm', ['run', '--silent', 'build:web'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
