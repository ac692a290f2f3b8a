import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { API } from '../support/api.js';
import { useTestApp } from '../support/dialects.js';

/*
 * The document as an integrator uses it: (1) types generated from the served document with
 * openapi-typescript, and a small typed workflow that must type-check against them (tsc in a temp
 * dir); (2) the real responses of a scripted workflow, success and error, each validated against the
 * schema the document gives for its operation and status, with Ajv's JSON Schema 2020-12 validator
 * (the dialect of OpenAPI 3.1), not with the server's own compiled validators. SQLite only: what is
 * checked is the document against the server's answers.
 */

const run = promisify(execFile);
const TSC = path.resolve('node_modules/typescript/bin/tsc');

const WORKFLOW = `
import type { components, paths } from './laneboard.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type CreateTask = Json<paths['/api/ext/v1/boards/{boardId}/tasks']['post']['requestBody']>;
type Created = Json<paths['/api/ext/v1/boards/{boardId}/tasks']['post']['responses'][201]>;
type MoveBody = Json<paths['/api/ext/v1/boards/{boardId}/tasks/{taskId}/move']['post']['requestBody']>;
type Webhook = Json<paths['/api/ext/v1/webhooks']['post']['requestBody']>;
type ErrorCode = components['schemas']['ErrorResponse']['error']['code'];

const create: CreateTask = { title: 'Ship it', laneId: 'lane_1', priority: 3, tags: ['release'] };
declare const created: Created;
const shortId: string = created.data.shortId;
const position: number | null = created.data.position;
const move: MoveBody = { laneId: 'lane_2', position: 0 };
const hook: Webhook = { url: 'https://hooks.example.com/in', events: ['task.created', 'task.moved'] };
// @ts-expect-error an event name the API does not know
const wrongHook: Webhook = { url: 'https://hooks.example.com/in', events: ['task.renamed'] };

function explain(code: ErrorCode): string {
  switch (code) {
    case 'rate_limited':
      return 'wait';
    case 'validation_error':
    case 'invalid_body':
      return 'fix the request';
    default:
      return code;
  }
}
// @ts-expect-error not an error code of the API
explain('teapot');
export const used = [create, shortId, position, move, hook, wrongHook, explain];
`;

interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

describe('OpenAPI document as integrators use it', () => {
  let doc: Doc;

  const t = useTestApp('sqlite');
  beforeAll(async () => {
    doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
  });

  it('generates types that a typed workflow compiles against', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-openapi-'));
    try {
      const ast = await openapiTS(doc as never);
      fs.writeFileSync(path.join(dir, 'laneboard.ts'), astToString(ast));
      fs.writeFileSync(path.join(dir, 'workflow.ts'), WORKFLOW);
      const args = [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
      ];
      const result = await run(process.execPath, [TSC, ...args, 'nodenext', 'workflow.ts'], {
        cwd: dir,
        // A compiler that hangs is killed (and the test fails), never left running.
        timeout: 240_000,
        killSignal: 'SIGKILL',
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
      expect(result.stdout).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('holds examples that are valid against their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formatsPlugin.default(ajv as never);
    ajv.addSchema({ ...doc, $id: 'openapi.json' } as object);
    const invalid: string[] = [];
    let count = 0;
    const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
    function visit(node: unknown, pointer: string[]): void {
      if (node === null || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      const isSchema =
        typeof record.type === 'string' || record.properties !== undefined || record.enum !== undefined;
      if (isSchema && Array.isArray(record.examples)) {
        const validate = ajv.getSchema(`openapi.json#/${pointer.map(escapePointer).join('/')}`);
        for (const example of record.examples) {
          count++;
          if (validate && !validate(example))
            invalid.push(`${pointer.join('/')}: ${ajv.errorsText(validate.errors)}`);
        }
      }
      for (const [key, value] of Object.entries(record)) {
        if (key !== 'examples') visit(value, [...pointer, key]);
      }
    }
    visit(doc, []);
    expect(count).toBeGreaterThan(30);
    expect(invalid).toEqual([]);
  });

  it('describes every real response of a scripted workflow', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formatsPlugin.default(ajv as never);
    ajv.addSchema({ ...doc, $id: 'openapi.json' } as object);
    const problems: string[] = [];
    const checked = new Set<string>();

    /** Sends a request and validates its answer against the document's schema for it. */
    async function call(
      key: string | null,
      method: string,
      template: string,
      params: Record<string, string>,
      body?: unknown,
    ) {
      const url = template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] as string);
      const res = await t.request(key, method as 'GET', url, body);
      const operation = doc.paths[template]?.[method.toLowerCase()];
      const status = String(res.statusCode);
      const response = operation?.responses[status] ?? operation?.responses.default;
      if (!operation || !response) {
        problems.push(`${method} ${template} ${status}: not documented`);
        return res;
      }
      checked.add(`${method} ${template} ${status}`);
      if (res.statusCode === 204) return res;
      const pointer = `openapi.json#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${operation.responses[status] ? status : 'default'}/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer);
      if (!validate) problems.push(`${pointer}: no schema`);
      else if (!validate(res.json()))
        problems.push(`${method} ${template} ${status}: ${ajv.errorsText(validate.errors)}`);
      return res;
    }

    const { key } = await t.createKey('all');
    const board = (await call(key, 'POST', `${API}/boards`, {}, { name: 'Launch' })).json().data.id as string;
    const p: Record<string, string> = { boardId: board };
    await call(key, 'GET', `${API}/boards`, {});
    const lane = (await call(key, 'POST', `${API}/boards/{boardId}/lanes`, p, { name: 'Todo' })).json().data
      .id;
    const done = (await call(key, 'POST', `${API}/boards/{boardId}/lanes`, p, { name: 'Done' })).json().data
      .id;
    await call(
      key,
      'PATCH',
      `${API}/boards/{boardId}/lanes/{laneId}`,
      { ...p, laneId: done },
      { position: 0 },
    );
    await call(key, 'GET', `${API}/boards/{boardId}`, p);
    await call(key, 'GET', `${API}/boards/{boardId}/lanes`, p);
    const task = (
      await call(key, 'POST', `${API}/boards/{boardId}/tasks`, p, {
        title: 'Ship',
        laneId: lane,
        tags: ['a'],
      })
    ).json().data.id;
    p.taskId = task;
    await call(key, 'GET', `${API}/boards/{boardId}/tasks`, p);
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}`, p);
    await call(key, 'PATCH', `${API}/boards/{boardId}/tasks/{taskId}`, p, { priority: 2, archived: false });
    await call(key, 'POST', `${API}/boards/{boardId}/tasks/{taskId}/move`, p, { laneId: done });
    const comment = (
      await call(key, 'POST', `${API}/boards/{boardId}/tasks/{taskId}/comments`, p, {
        body: 'Hi',
        authorName: 'Ada',
      })
    ).json().data.id;
    await call(
      key,
      'PUT',
      `${API}/boards/{boardId}/tasks/{taskId}/comments/{commentId}/reactions/{content}`,
      {
        ...p,
        commentId: comment,
        content: 'rocket',
      },
    );
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}/comments`, p);
    const todo = (
      await call(key, 'POST', `${API}/boards/{boardId}/tasks/{taskId}/todos`, p, {
        text: 'Test',
        iteration: 0,
      })
    ).json().data.id;
    await call(
      key,
      'PATCH',
      `${API}/boards/{boardId}/tasks/{taskId}/todos/{todoId}`,
      { ...p, todoId: todo },
      { done: true },
    );
    await call(key, 'POST', `${API}/boards/{boardId}/tasks/{taskId}/todos/reorder`, p, {
      orderedIds: [todo],
    });
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}/todos`, p);
    const turn = {
      source: 'claude',
      sourceId: 't1',
      role: 'user',
      content: 'Hello',
      capturedAt: '2026-11-21T10:00:00.000Z',
    };
    await call(key, 'POST', `${API}/boards/{boardId}/tasks/{taskId}/turns`, p, { turns: [turn] });
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}/turns`, p);
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}/turns/watermark`, p);
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}/assets`, p);
    await call(key, 'GET', `${API}/webhooks`, {});
    // Errors: each is answered in the documented error shape.
    await call(null, 'GET', `${API}/boards`, {});
    await call(key, 'GET', `${API}/boards/{boardId}/tasks/{taskId}`, { ...p, taskId: 'task_missing' });
    await call(key, 'POST', `${API}/boards/{boardId}/tasks`, p, { title: ' ', laneId: lane });
    await call(key, 'PATCH', `${API}/webhooks/{id}`, { id: 'wh_missing' }, { active: false });
    const reader = (await t.createKey({ [board]: 'read' })).key;
    await call(reader, 'DELETE', `${API}/boards/{boardId}`, p);
    await call(key, 'DELETE', `${API}/boards/{boardId}/tasks/{taskId}`, p);
    await call(key, 'DELETE', `${API}/boards/{boardId}`, p);

    expect(problems).toEqual([]);
    expect(checked.size).toBeGreaterThanOrEqual(30);
    for (const status of ['400', '401', '403', '404']) {
      expect(
        [...checked].some((entry) => entry.endsWith(` ${status}`)),
        status,
      ).toBe(true);
    }
  });
});
