// `npm install` / `npm ci` (postinstall): links node_modules/.bin/laneboard to bin/laneboard.js.
//
// Why: `npx laneboard` runs node_modules/.bin/laneboard when it exists. When the project's own
// package.json declares the bin instead, npm exec installs the checkout into its cache (~/.npm/_npx) and
// runs `prepare` (the full build) first: seconds per call, and concurrent calls break that cache entry.
// So package.json declares no `bin`, and this makes the local one (docs/decisions.md, "npx laneboard").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binDir = path.join(root, 'node_modules', '.bin');
const link = path.join(binDir, 'laneboard');
const target = path.relative(binDir, path.join(root, 'bin', 'laneboard.js'));

fs.mkdirSync(binDir, { recursive: true });
// Made beside the link and renamed over it, so a concurrent `npx laneboard` never finds no link.
const temporary = `${link}.${process.pid}.tmp`;
fs.rmSync(temporary, { force: true });
fs.symlinkSync(target, temporary);
fs.renameSync(temporary, link);
