import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/dialects.js';

const run = promisify(execFile);
const REDOCLY = path.resolve('node_modules/@redocly/cli/bin/cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

/** Redocly's recommended rules over the served document, as an integrator's CI would run them. */
async function redoclyLint(document: unknown): Promise<LintProblem[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-redocly-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(document));
  try {
    const result = await run(process.execPath, [REDOCLY, 'lint', file, '--format=json'], {
      cwd: dir,
      // No telemetry or update check: tests talk to no other host.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      maxBuffer: 32 * 1024 * 1024,
      // A lint run that hangs is killed (and the test fails), never left running.
      timeout: 240_000,
      killSignal: 'SIGKILL',
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(result.stdout) as { problems: LintProblem[] };
    return report.problems;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the OpenAPI document under @redocly/cli lint (recommended rules)', () => {
  const app = useTestApp('sqlite');

  it('has no error and no warning', async () => {
    const response = await app.app.inject({ method: 'GET', url: '/api/ext/v1/openapi.json' });
    const problems = await redoclyLint(response.json());
    expect(
      problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`),
    ).toEqual([]);
  }, 300_000);

  it('reports a document that breaks a rule (the check can fail)', async () => {
    const response = await app.app.inject({ method: 'GET', url: '/api/ext/v1/openapi.json' });
    const document = response.json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) delete operation.operationId;
    const problems = await redoclyLint(document);
    expect(problems.some((p) => p.ruleId === 'operation-operationId')).toBe(true);
  }, 300_000);
});
