import type http from 'node:http';
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

/** An HTTP answer: status and body text. */
interface Answer {
  status: number;
  text: string;
}

/**
 * The few external-API calls capture needs, over `node:http` / `node:https` (a hook process pays for
 * every module it loads: undici costs about 200 ms of CPU to load, node:http about 10; docs/performance.md,
 * "Capture hook"). One keep-alive agent with one socket per run, destroyed at the end, so no socket holds
 * the hook process open after its work is done.
 */
export class CaptureApiClient {
  private readonly url: URL;
  private readonly basePath: string;
  private transport: Promise<{ request: typeof http.request; agent: http.Agent }> | null = null;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly deadline: Deadline,
  ) {
    this.url = new URL(baseUrl);
    this.basePath = this.url.pathname.replace(/\/+$/, '');
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
    const transport = await this.transport?.catch(() => null);
    transport?.agent.destroy();
  }

  /** node:https for an https URL, else node:http; loaded on the first request. */
  private load(): Promise<{ request: typeof http.request; agent: http.Agent }> {
    this.transport ??= (this.url.protocol === 'https:' ? import('node:https') : import('node:http')).then(
      (module) => ({ request: module.request, agent: new module.Agent({ keepAlive: true, maxSockets: 1 }) }),
    );
    return this.transport;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const remaining = this.deadline.remainingMs();
    if (remaining <= 0) throw new CaptureApiError('Out of time before the request.', null);
    let answer: Answer;
    try {
      answer = await this.send(method, `${this.basePath}${API_PREFIX}${path}`, remaining, body);
    } catch (error) {
      throw new CaptureApiError(`${method} ${path}: no answer (${describe(error)}).`, null);
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new CaptureApiError(
        `${method} ${path}: HTTP ${answer.status} ${errorText(answer.text)}`,
        answer.status,
      );
    }
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw new CaptureApiError(`${method} ${path}: the answer is not JSON.`, answer.status);
    }
  }

  /** One request, bounded by `timeoutMs` from start to the end of the answer's body. */
  private async send(method: string, path: string, timeoutMs: number, body?: unknown): Promise<Answer> {
    const { request, agent } = await this.load();
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body), 'utf8');
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
          port: this.url.port || undefined,
          path,
          method,
          headers,
          agent,
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    // The request's signal fired: the run's time was up.
    if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'time-out';
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
