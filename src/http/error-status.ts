import type { ErrorCode } from '../domain/errors.js';

/** The one place error codes meet HTTP statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_body: 400,
  missing_auth: 401,
  invalid_key: 401,
  unauthenticated: 401,
  invalid_credentials: 401,
  csrf_failed: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  cursor_expired: 410,
  idempotency_key_reused: 422,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  unavailable: 503,
};

export function errorBody(code: ErrorCode, message: string): { error: { code: ErrorCode; message: string } } {
  return { error: { code, message } };
}
