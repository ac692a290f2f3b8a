import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB_SRC = path.resolve(import.meta.dirname, '../../web/src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(WEB_SRC, file);
const outsideApi = sources(WEB_SRC).filter((file) => !relative(file).startsWith(`api${path.sep}`));

/**
 * Issue 25: requests and query keys live in web/src/api (one module per feature); pages, components
 * and the live stream call its hooks and key factories.
 */
describe('the web UI talks to the server through its api modules only', () => {
  it('makes no request outside web/src/api', () => {
    const offenders = outsideApi.filter((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const fromClient = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[./]*api\/client'/g)];
      const names = fromClient.flatMap((match) => (match[1] ?? '').split(',').map((name) => name.trim()));
      return (
        names.some((name) => ['api', 'request', 'getEnvelope', 'upload'].includes(name)) ||
        /\bfetch\(/.test(text)
      );
    });
    expect(offenders.map(relative)).toEqual([]);
  });

  it('writes no query key outside web/src/api', () => {
    const offenders = outsideApi.filter((file) => /queryKey:\s*\[/.test(fs.readFileSync(file, 'utf8')));
    expect(offenders.map(relative)).toEqual([]);
  });

  it('keeps web/src/live free of pages', () => {
    const live = sources(path.join(WEB_SRC, 'live'));
    const offenders = live.filter((file) => /from\s+'[./]*pages\//.test(fs.readFileSync(file, 'utf8')));
    expect(offenders.map(relative)).toEqual([]);
  });
});
