import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { Agent, type Dispatcher } from 'undici';
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

  /**
   * One POST through undici's handler interface: no body stream, promise chain or AbortController per
   * attempt (the request API's; together about a tenth of an attempt's CPU). The first
   * RESPONSE_KEEP_BYTES of the response are kept as text, up to RESPONSE_DRAIN_BYTES are read so the
   * socket can be reused, and a longer response is cut off (which closes its socket).
   */
  send(target: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    let url: URL;
    try {
      url = new URL(target);
    } catch (error) {
      return Promise.resolve(this.result(null, null, describe(error), started));
    }
    return new Promise((resolve) => {
      let status: number | null = null;
      const decoder = new StringDecoder('utf8');
      let text = '';
      let kept = 0;
      let seen = 0;
      let controller: Dispatcher.DispatchController | null = null;
      let done = false;
      const finish = (error: string | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        // Once a status has arrived the attempt is judged by it, whatever happened to the rest.
        resolve(
          status === null
            ? this.result(null, null, error, started)
            : this.result(status, clean(text), null, started),
        );
      };
      const timer = setTimeout(() => {
        finish(`No response within ${this.options.timeoutMs} ms.`);
        controller?.abort(new Error('webhook attempt timed out'));
      }, this.options.timeoutMs);
      const request: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        body,
      };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (c) => {
          controller = c;
          if (done) c.abort(new Error('webhook attempt timed out'));
        },
        onResponseStart: (_c, statusCode) => {
          status = statusCode;
        },
        onResponseData: (c, chunk) => {
          seen += chunk.length;
          if (kept < RESPONSE_KEEP_BYTES) {
            const part = chunk.subarray(0, RESPONSE_KEEP_BYTES - kept);
            kept += part.length;
            // StringDecoder holds back a multi-byte character cut at the limit instead of mangling it.
            text += decoder.write(part);
          }
          if (seen > RESPONSE_DRAIN_BYTES) {
            finish(null);
            c.abort(new Error('webhook response too long'));
          }
        },
        onResponseEnd: () => finish(null),
        onResponseError: (_c, error) => finish(describe(error)),
      };
      try {
        this.agent.dispatch(request, handler);
      } catch (error) {
        finish(describe(error));
      }
    });
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
