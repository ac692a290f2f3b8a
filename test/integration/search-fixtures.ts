import { expect } from 'vitest';
import { API } from '../support/api.js';
import type { TestApp } from '../support/test-app.js';
import { createBoard, createTask } from './task-fixtures.js';

export { API, expectError } from '../support/api.js';

export interface SearchResult {
  kind: 'task' | 'comment' | 'todo' | 'turn';
  boardId: string;
  taskId: string;
  shortId: string;
  title: string;
  itemId: string | null;
  snippet: string;
}

export interface SearchBody {
  data: SearchResult[];
  cursor: string | null;
}

/** The fixed corpus: board A with tasks of each kind of text, board B with one task. */
export interface Corpus {
  /** Edit on every board. */
  allKey: string;
  /** Read on board A only. */
  readAKey: string;
  boardA: string;
  boardB: string;
  urlA: string;
  /** Title "Deploy pipeline overhaul" (a turn mentions the xylophone refactor). */
  pipeline: string;
  /** "Fix login form": deploy and "staging server" in its description; a comment about marmalade. */
  login: string;
  /** "Quarterly report", tag zebrafish; a todo about kumquat charts. */
  report: string;
  /** Archived: "Archived deploy notes". */
  archived: string;
  /** Board B: "Secret deploy plan", codename nightingale. */
  secret: string;
  commentId: string;
}

export async function createCorpus(t: TestApp): Promise<Corpus> {
  const allKey = (await t.createKey('all')).key;
  const a = await createBoard(t, ['Todo'], allKey);
  const b = await createBoard(t, ['Todo'], allKey);
  const laneId = a.laneIds[0] as string;
  const task = (body: Record<string, unknown>) => createTask(t, a, { laneId, ...body }).then((x) => x.id);
  const pipeline = await task({
    title: 'Deploy pipeline overhaul',
    description: 'Rewrite the staging server scripts.',
    tags: ['infra'],
  });
  const login = await task({
    title: 'Fix login form',
    description: 'The deploy button misbehaves on the staging server when the session expires.',
  });
  const report = await task({ title: 'Quarterly report', tags: ['zebrafish'] });
  const archived = await task({ title: 'Archived deploy notes', description: 'obsolescence' });
  const secret = (
    await createTask(t, b, {
      laneId: b.laneIds[0] as string,
      title: 'Secret deploy plan',
      description: 'codename nightingale',
    })
  ).id;
  const ok = async (path: string, body: unknown, method: 'POST' | 'PATCH' = 'POST') => {
    const res = await t.request(allKey, method, `${a.url}${path}`, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as { data: { id: string } };
  };
  await ok(`/tasks/${archived}`, { archived: true }, 'PATCH');
  const comment = await ok(`/tasks/${login}/comments`, {
    body: 'Reproduced with the marmalade browser build.',
    authorName: 'Tester',
  });
  await ok(`/tasks/${report}/todos`, { text: 'Polish the kumquat charts', iteration: 1 });
  await ok(`/tasks/${pipeline}/turns`, {
    turns: [
      {
        source: 'claude',
        sourceId: 'msg-1',
        role: 'assistant',
        content: 'I suggest the xylophone refactor of [[wiki]] links first.',
        capturedAt: '2026-11-20T10:00:00.000Z',
      },
    ],
  });
  const readAKey = (await t.createKey({ [a.boardId]: 'read' })).key;
  return {
    allKey,
    readAKey,
    boardA: a.boardId,
    boardB: b.boardId,
    urlA: a.url,
    pipeline,
    login,
    report,
    archived,
    secret,
    commentId: comment.data.id,
  };
}

/** GET /search with `params`; expects 200. */
export async function search(t: TestApp, key: string, params: Record<string, string>): Promise<SearchBody> {
  const res = await t.request(key, 'GET', `${API}/search?${new URLSearchParams(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SearchBody;
}

export function searchRaw(t: TestApp, key: string, params: Record<string, string>) {
  return t.request(key, 'GET', `${API}/search?${new URLSearchParams(params)}`);
}
