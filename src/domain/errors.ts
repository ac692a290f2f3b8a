/** Stable, snake_case error codes. HTTP statuses for them live in one place: http/error-status.ts. */
export type ErrorCode =
  | 'missing_auth'
  | 'invalid_key'
  | 'forbidden'
  | 'not_found'
  | 'validation_error'
  | 'invalid_body'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'headers_too_large'
  | 'request_timeout'
  | 'rate_limited'
  | 'conflict'
  | 'internal_error'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found.`);

export const invalid = (field: string, problem: string): DomainError =>
  new DomainError('validation_error', `\`${field}\` ${problem}`);

export const forbidden = (message = 'This API key does not have access to that board.'): DomainError =>
  new DomainError('forbidden', message);
