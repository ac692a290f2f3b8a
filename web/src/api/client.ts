/** The UI's internal API (/api/ui, session cookie). Errors keep the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const UI_API = '/api/ui';

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  return ((await send(method, path, body)) as { data: T } | undefined)?.data as T;
}

/**
 * The whole answer body, for the few answers that carry more than `data` (a turn page's `cursor`).
 * `signal` lets React Query abort a read nobody waits for any more (a search typed further).
 */
export function getEnvelope<T>(path: string, signal?: AbortSignal): Promise<T> {
  return send('GET', path, undefined, signal) as Promise<T>;
}

/** A multipart upload (assets): the browser sets the boundary itself. */
export async function upload<T>(path: string, form: FormData): Promise<T> {
  return ((await send('POST', path, form)) as { data: T }).data;
}

async function send(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
  let response: Response;
  const multipart = body instanceof FormData;
  try {
    response = await fetch(`${UI_API}${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined || multipart ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : multipart ? body : JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection.');
  }
  if (response.status === 204) return undefined;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: handled below
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `The server answered ${response.status}.`,
    );
  }
  return parsed;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};
