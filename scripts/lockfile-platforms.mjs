// This workplace's registry serves only the Linux builds of packages that ship one native package per
// platform (Biome, Tailwind's oxide). `npm install` then leaves the other platforms out of the lockfile
// and `npm ci` refuses the lock. This adds an entry for each missing one, with the os/cpu that make npm
// skip it here and fetch it elsewhere. Run after changing dependencies: node scripts/lockfile-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'sunos', 'aix'];
const CPU = { arm64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', wasm32: 'wasm32' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p)) ?? (parts.includes('wasm32') ? null : undefined);
  const cpuPart = parts.find((p) => p in CPU);
  if (os === undefined || !cpuPart) return null;
  const entry = { cpu: [CPU[cpuPart]] };
  if (os) entry.os = [os];
  if (parts.includes('musl')) entry.libc = ['musl'];
  else if (os === 'linux' && parts.includes('gnu')) entry.libc = ['glibc'];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (lock.packages[key]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[key] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
    process.stdout.write(`added ${key} (for ${path})\n`);
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0,
  ),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`${added} entries added\n`);
