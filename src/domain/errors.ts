import type { ErrorCode } from '../schemas/errors.js';

export type { ErrorCode };

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
