import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/built-server.js';
import {
  ALLOWED_IMPORTS,
  documentedRules,
  findViolations,
  importsOf,
  mutualRooms,
  readSources,
  roomOf,
  TYPE_ONLY_IMPORTS,
} from '../support/layering.js';

describe('layering (docs/architecture.md)', () => {
  it('src/ and web/src/ have no import that points the wrong way', () => {
    const sources = readSources(ROOT);
    expect([...sources.keys()].some((file) => file.startsWith('web/src/'))).toBe(true);
    expect(findViolations(sources)).toEqual([]);
  });

  it('docs/architecture.md states exactly these rules', () => {
    const documented = documentedRules(fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
    const sorted = (list: readonly string[] | '*') => (list === '*' ? '*' : [...list].sort());
    expect([...documented.keys()].sort()).toEqual(Object.keys(ALLOWED_IMPORTS).sort());
    for (const [room, allowed] of Object.entries(ALLOWED_IMPORTS)) {
      expect(sorted(documented.get(room)?.imports ?? []), room).toEqual(sorted(allowed));
      expect(sorted(documented.get(room)?.types ?? []), room).toEqual(sorted(TYPE_ONLY_IMPORTS[room] ?? []));
    }
  });

  it("lets the web UI import only types from the server's schemas", () => {
    const files = new Map([
      [
        'web/src/api/tasks.ts',
        "import type { Task } from '../../../src/schemas/tasks';\nimport { x } from './client';\n",
      ],
      ['web/src/api/boards.ts', "import { Board } from '../../../src/schemas/boards';\n"],
      [
        'web/src/pages/x.tsx',
        "import { services } from '../../../src/services';\nimport a from '../../../bench/a.mjs';\n",
      ],
    ]);
    expect(findViolations(files).map((v) => `${v.file}: ${v.reason}`)).toEqual([
      'web/src/api/boards.ts: web/ may not import schemas/ except with `import type`',
      'web/src/pages/x.tsx: web/ may not import src/*.ts',
      'web/src/pages/x.tsx: web/ may not import outside the rooms',
    ]);
  });

  it('keeps mcp/ and capture/ to the schemas and lib, and the domain away from live/ and webhooks/', () => {
    const files = new Map([
      ['src/mcp/tools/x.ts', "import type { Actor } from '../../domain/actor.js';\n"],
      ['src/capture/y.ts', "import { LIMITS } from '../schemas/limits.js';\n"],
      ['src/domain/z.ts', "import type { ChangeFeed } from '../live/change-feed.js';\n"],
      ['src/live/w.ts', "import { WebhookFanOut } from '../webhooks/outbox.js';\n"],
    ]);
    expect(findViolations(files).map((v) => v.reason)).toEqual([
      'mcp/ may not import domain/',
      'domain/ may not import live/',
      'live/ may not import webhooks/',
    ]);
  });

  it('no two rooms import each other', () => {
    expect(mutualRooms(readSources(ROOT))).toEqual([]);
    // The rules themselves allow no pair in both directions (the composition root aside).
    for (const [room, allowed] of Object.entries(ALLOWED_IMPORTS)) {
      if (allowed === '*') continue;
      for (const other of allowed) {
        const back = ALLOWED_IMPORTS[other];
        if (back !== '*') expect(back?.includes(room), `${room} <-> ${other}`).toBe(false);
      }
    }
  });

  it('finds rooms that import each other', () => {
    const files = new Map([
      ['src/domain/a.ts', "import { b } from '../webhooks/b.js';\n"],
      ['src/webhooks/b.ts', "import type { A } from '../domain/a.js';\n"],
      ['src/http/c.ts', "import { a } from '../domain/a.js';\n"],
    ]);
    expect(mutualRooms(files)).toEqual(['domain <-> webhooks']);
  });

  it('finds a repository importing the domain, type-only and re-exports included', () => {
    const files = new Map([
      ['src/db/repositories/x.ts', "import type { Actor } from '../../domain/actor.js';\n"],
      ['src/db/y.ts', "export { thing } from '../webhooks/outbox.js';\n"],
      [
        'src/domain/z.ts',
        "const m = await import('../http/app.js');\nimport { a } from '../db/schema.js';\n",
      ],
      ['src/lib/ok.ts', "import { b } from './other.js';\n"],
    ]);
    expect(findViolations(files)).toEqual([
      {
        file: 'src/db/repositories/x.ts',
        imports: 'src/domain/actor.js',
        reason: 'db/ may not import domain/',
      },
      { file: 'src/db/y.ts', imports: 'src/webhooks/outbox.js', reason: 'db/ may not import webhooks/' },
      { file: 'src/domain/z.ts', imports: 'src/http/app.js', reason: 'domain/ may not import http/' },
    ]);
  });

  it('reports a room nobody placed, and a room importing the composition root', () => {
    const files = new Map([
      ['src/jobs/cleanup.ts', ''],
      ['src/http/routes/x.ts', "import { createRuntime } from '../../runtime.js';\n"],
    ]);
    expect(findViolations(files).map((v) => v.reason)).toEqual([
      'unknown room "jobs": add it to docs/architecture.md and ALLOWED_IMPORTS',
      'http/ may not import src/*.ts',
    ]);
  });

  it('resolves relative paths to rooms', () => {
    expect(importsOf('src/domain/tasks/t.ts', "import { x } from '../../db/schema.js';")).toEqual([
      'src/db/schema.js',
    ]);
    expect(roomOf('src/main.ts')).toBe('root');
    expect(roomOf('src/db/schema.ts')).toBe('db');
  });
});
