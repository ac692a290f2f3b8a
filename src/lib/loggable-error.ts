/**
 * What of an unexpected error may reach a log line: its type, code and a bounded message. Never the
 * stack, nor fields such as a driver's `query`, `parameters` or `detail`, which can carry SQL text or
 * stored values (API keys, webhook secrets) — operators correlate with the request id instead.
 */
export interface LoggableError {
  type: string;
  code?: string;
  message: string;
}

const MAX_MESSAGE = 300;

export function loggableError(error: unknown): LoggableError {
  if (!(error instanceof Error)) return { type: typeof error, message: truncate(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    message: truncate(redactSecrets(error.message)),
  };
}

/** Key and secret values have recognisable prefixes; a message that quotes one is masked. */
function redactSecrets(message: string): string {
  return message.replace(/\b(ak|whsec)_[A-Za-z0-9+/=_-]+/g, '$1_[redacted]');
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}
