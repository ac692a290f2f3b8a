import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// The server (src/http/web-ui.ts) serves dist/web; `npm run dev:web` proxies the API to a running server.
export default defineConfig({
  root: here,
  plugins: [react(), tailwindcss()],
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
});
