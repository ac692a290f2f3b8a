import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { Agent } from 'undici';
import type { HostResolver } from '../lib/net/url-guard.js';
import { guardedConnector } from './guarded-connector.js';

/** How much of a response is kept for the delivery record, and how much more is read to reuse the socket. */
export const RESPONSE_KEEP_BYTES = 1024;
const RESPONSE_DRAIN_BYTES = 64 * 1024;
const ERROR_TEXT_LIMIT = 500;

export interface AttemptResult {
  /** 2xx within the time-out. */
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Keep-alive sockets per receiver origin; matches the dispatcher's per-host concurrency. */
  connectionsPerOrigin: number;
  resolve?: HostResolver;
}

/**
 * One pooled keep-alive agent for every receiver. Redirects are never followed (undici's request does not
 * follow them without an interceptor), so a 3xx is a failed attempt recorded with its status.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      connect: guardedConnector({
        allowPrivate: options.allowPrivate,
        connectTimeoutMs: options.timeoutMs,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      }),
      connections: options.connectionsPerOrigin,
      // Backstops only: the attempt's own abort timer fires first and names the time-out.
      headersTimeout: options.timeoutMs + 1000,
      bodyTimeout: options.timeoutMs + 1000,
    });
  }

  async send(target: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.options.timeoutMs);
    let status: number | null = null;
    let kept: string | null = null;
    try {
      const url = new URL(target);
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        body,
        signal: abort.signal,
      });
      status = response.statusCode;
      kept = await readStart(response.body, (text) => {
        kept = text;
      });
      return this.result(status, kept, null, started);
    } catch (error) {
      if (status !== null) return this.result(status, kept, null, started);
      const text = abort.signal.aborted
        ? `No response within ${this.options.timeoutMs} ms.`
        : describe(error);
      return this.result(null, null, text, started);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private result(status: number | null, body: string | null, error: string | null, started: number) {
    const ok = status !== null && status >= 200 && status < 300;
    let problem = error;
    if (status !== null && !ok) {
      problem =
        status >= 300 && status < 400
          ? `Receiver answered HTTP ${status}; redirects are not followed.`
          : `Receiver answered HTTP ${status}.`;
    }
    return { ok, status, body, error: problem, durationMs: Math.round(performance.now() - started) };
  }
}

/**
 * Reads up to RESPONSE_KEEP_BYTES as text, then drains a bounded amount more so the socket can be reused;
 * a longer response ends the loop, which destroys the stream and its socket. `progress` sees the text
 * kept so far, so a time-out while draining still records it.
 */
async function readStart(stream: AsyncIterable<Buffer>, progress: (text: string) => void): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let kept = 0;
  let seen = 0;
  for await (const chunk of stream) {
    seen += chunk.length;
    if (kept < RESPONSE_KEEP_BYTES) {
      const part = chunk.subarray(0, RESPONSE_KEEP_BYTES - kept);
      kept += part.length;
      // StringDecoder holds back a multi-byte character cut at the limit instead of mangling it.
      text += decoder.write(part);
      progress(clean(text));
    }
    if (seen > RESPONSE_DRAIN_BYTES) break;
  }
  return clean(text);
}

/** NUL cannot be stored in PostgreSQL text. */
function clean(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'The attempt failed.';
  const code = (error as NodeJS.ErrnoException).code;
  const message = error.message || code || error.name;
  const text = code && !message.includes(code) ? `${message} (${code})` : message;
  return text.length > ERROR_TEXT_LIMIT ? `${text.slice(0, ERROR_TEXT_LIMIT - 1)}…` : text;
}
