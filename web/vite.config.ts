import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

// The server (src/http/web-ui.ts) serves dist/web; `npm run dev:web` proxies the API to a running server.
export default defineConfig(({ command }) => {
  // A build is always what users get. Vite takes NODE_ENV from the environment, and `npm test`'s
  // pretest under Vitest, CI shells and some `npm ci` setups carry NODE_ENV=test or development, which
  // made a development build (jsx-dev-runtime, React's checks: the first page measured 266.9 KB
  // gzipped instead of ~135 KB). Vite reads process.env.NODE_ENV again after loading this file.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: here,
    mode: command === 'build' ? 'production' : undefined,
    plugins: [react(), tailwindcss(), precompress()],
    build: {
      outDir: path.resolve(here, '../dist/web'),
      emptyOutDir: true,
      // test/unit/web-bundle-size.test.ts reads it to weigh the first page's JavaScript.
      manifest: true,
      // Inline nothing: the Content-Security-Policy allows scripts and images from files only.
      assetsInlineLimit: 0,
    },
    server: {
      proxy: {
        '/api': process.env.LANEBOARD_URL ?? 'http://127.0.0.1:3000',
      },
    },
  };
});
