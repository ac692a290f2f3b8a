import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/built-server.js';
import {
  ALLOWED_IMPORTS,
  findViolations,
  importsOf,
  mutualRooms,
  readSources,
  roomOf,
} from '../support/layering.js';

describe('layering (docs/architecture.md)', () => {
  it('src/ has no import that points the wrong way', () => {
    expect(findViolations(readSources(ROOT))).toEqual([]);
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
