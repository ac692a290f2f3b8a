import { Agent } from 'undici';
import type { Deadline } from './deadline.js';

/** A turn as the external API takes it (`POST .../turns`). */
export interface TurnPayload {
  source: 'claude' | 'copilot';
  sourceId: string;
  role: 'user' | 'assistant';
  content: string;
  capturedAt: string;
  toolUseOnly?: boolean;
}

export interface TaskRef {
  boardId: string;
  taskId: string;
  shortId: string;
}

/** Why a call did not succeed, in words fit for the log (never the key). */
export class CaptureApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or null when no answer came (server down, time-out). */
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'CaptureApiError';
  }
}

const API_PREFIX = '/api/ext/v1';
const ERROR_TEXT_LIMIT = 300;

/**
 * The few external-API calls capture needs. One agent per run, closed at the end, so no keep-alive socket
 * holds the hook process open after its work is done.
 */
export class CaptureApiClient {
  private readonly agent = new Agent({ connections: 1, pipelining: 0 });
  private readonly origin: string;
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly deadline: Deadline,
  ) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  async findTask(shortId: string): Promise<TaskRef | null> {
    const boards = (await this.call('GET', '/boards')) as { data: Array<{ id: string }> };
    const wanted = shortId.toLowerCase();
    for (const board of boards.data) {
      const query = new URLSearchParams({ shortIdPrefix: wanted, includeArchived: 'true' });
      const tasks = (await this.call('GET', `/boards/${encodeURIComponent(board.id)}/tasks?${query}`)) as {
        data: Array<{ id: string; shortId: string }>;
      };
      const task = tasks.data.find((t) => t.shortId.toLowerCase() === wanted);
      if (task) return { boardId: board.id, taskId: task.id, shortId: task.shortId };
    }
    return null;
  }

  async postTurns(task: TaskRef, turns: readonly TurnPayload[]): Promise<number> {
    const path = `/boards/${encodeURIComponent(task.boardId)}/tasks/${encodeURIComponent(task.taskId)}/turns`;
    const body = (await this.call('POST', path, { turns })) as { data: { inserted: number } };
    return body.data.inserted;
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => {});
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const remaining = this.deadline.remainingMs();
    if (remaining <= 0) throw new CaptureApiError('Out of time before the request.', null);
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Awaited<ReturnType<Agent['request']>>;
    try {
      response = await this.agent.request({
        origin: this.origin,
        path: `${this.basePath}${API_PREFIX}${path}`,
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(remaining),
        headersTimeout: remaining,
        bodyTimeout: remaining,
      });
    } catch (error) {
      throw new CaptureApiError(`${method} ${path}: no answer (${describe(error)}).`, null);
    }
    const text = await response.body.text().catch(() => '');
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new CaptureApiError(
        `${method} ${path}: HTTP ${response.statusCode} ${errorText(text)}`,
        response.statusCode,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new CaptureApiError(`${method} ${path}: the answer is not JSON.`, response.statusCode);
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string'
      ? `${error.name} ${code}`
      : error.name === 'TimeoutError'
        ? 'time-out'
        : error.message;
  }
  return String(error);
}

/** The server's `{"error":{"code","message"}}`, shortened; anything else is cut, not echoed whole. */
function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (parsed.error)
      return `${parsed.error.code ?? ''}: ${parsed.error.message ?? ''}`.slice(0, ERROR_TEXT_LIMIT);
  } catch {
    // not the error shape
  }
  return text.slice(0, ERROR_TEXT_LIMIT);
}
