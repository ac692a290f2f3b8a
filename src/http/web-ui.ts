import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './error-status.js';

/** dist/web at the package root, whether this file runs from src/http (tests) or dist/http (built). */
export const DEFAULT_WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

/**
 * The browser may run only what the server sent as files: no inline or injected script, no plugins, no
 * framing (clickjacking), no foreign connections. Inline `style` attributes are allowed because the
 * dialog and popover primitives position themselves with them (and a toast library injects its sheet);
 * styles cannot run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that belong to the server: an unknown one is the API's 404, never the web UI's page. */
const SERVER_PATHS = /^\/(api|mcp|healthz)(\/|$)/;
/** Vite names built assets with a content hash, so they never change and may be cached for a year. */
const HASHED_ASSETS = /^\/assets\//;

export interface WebUiOptions {
  /** The directory holding the built front end (index.html and assets/); default dist/web. */
  root?: string;
}

function listFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    // .vite/manifest.json is for the build's tests, not for browsers.
    if (entry.name.startsWith('.')) continue;
    // Compressed copies (.br, .gz) are sent in their file's place, never asked for by name.
    if (/\.(br|gz)$/.test(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(root, full));
    else files.push(`/${path.relative(root, full).split(path.sep).join('/')}`);
  }
  return files;
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .header('X-Frame-Options', 'DENY');
}

/**
 * Serves the built web UI at `/`: the files of dist/web (known at start, so nothing outside it can be
 * asked for), and index.html for every other GET that is not a server path, so client routes such as
 * /settings/keys load the app. index.html is revalidated on every load so a new version is picked up.
 */
export async function webUi(app: FastifyInstance, options: WebUiOptions = {}): Promise<void> {
  const root = options.root ?? DEFAULT_WEB_ROOT;
  const built = fs.existsSync(path.join(root, 'index.html'));
  if (built) {
    // The build writes .br and .gz beside each text file (web/precompress.ts): the copy the browser's
    // Accept-Encoding asks for is sent, with Vary: Accept-Encoding, and nothing is compressed per request.
    await app.register(fastifyStatic, { root, serve: false, index: false, preCompressed: true });
  } else {
    app.log.warn(`web UI not built (${root} has no index.html): run \`npm run build\``);
  }
  const files = new Set(built ? listFiles(root) : []);

  app.get('/*', { config: { auth: false }, schema: { hide: true } }, async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (SERVER_PATHS.test(urlPath)) return reply.callNotFound();
    let pathname: string;
    try {
      pathname = decodeURIComponent(urlPath);
    } catch {
      return reply.callNotFound();
    }
    if (files.has(pathname) && pathname !== '/index.html') {
      securityHeaders(reply).header(
        'Cache-Control',
        HASHED_ASSETS.test(pathname) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
      return reply.sendFile(pathname.slice(1), { cacheControl: false });
    }
    // A missing file (a stale hashed asset, a typo) is a 404, not the app's page in its place.
    if (HASHED_ASSETS.test(pathname) || /\.[a-z0-9]+$/i.test(pathname)) return reply.callNotFound();
    if (!built) {
      return reply
        .status(503)
        .send(
          errorBody(
            'unavailable',
            'The web UI is not built: run `npm run build` (or `npm install`), which writes it to dist/web, then restart.',
          ),
        );
    }
    securityHeaders(reply).header('Cache-Control', 'no-cache');
    return reply.type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
  });
}
