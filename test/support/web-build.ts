import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newestMtime, withBuildLock } from './build-lock.js';
import { ROOT } from './built-server.js';

export const WEB_DIST = path.join(ROOT, 'dist/web');
const WEB_BUILD_TIMEOUT_MS = 10 * 60_000;

function webBuildIsFresh(): boolean {
  const index = path.join(WEB_DIST, 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  return built >= newestMtime(path.join(ROOT, 'web'));
}

/**
 * Builds the web UI (`npm run build:web`) when dist/web is missing or older than web/ — one worker at a time (CI builds on
 * install: usually a no-op).
 */
export function ensureWebBuilt(): void {
  if (webBuildIsFresh()) return;
  withBuildLock(ROOT, 'web-build', () => {
    if (webBuildIsFresh()) return; // another worker built it while this one waited
    // Vitest sets NODE_ENV=test, which would make Vite emit a development build (larger,
    // jsx-dev-runtime): build what users get.
    // Vite itself rather than `npm run build:web`, so the time-out kills the build and not only npm.
    const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
    execFileSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
      timeout: WEB_BUILD_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
  });
}
