import { Type } from '@sinclair/typebox';
import { StringEnum } from './common.js';

/** Stable, snake_case error codes. Their HTTP statuses live in one place: http/error-status.ts. */
export const ERROR_CODES = [
  'missing_auth',
  'invalid_key',
  // The web UI's internal API (docs/ui-api.md): sessions, sign-in and the Origin check.
  'unauthenticated',
  'invalid_credentials',
  'csrf_failed',
  'forbidden',
  'not_found',
  'validation_error',
  'invalid_body',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'headers_too_large',
  'request_timeout',
  'rate_limited',
  'conflict',
  'idempotency_key_reused',
  // The activity stream: a cursor older than the retention window.
  'cursor_expired',
  'internal_error',
  'unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: StringEnum(ERROR_CODES, {
        description: 'Stable, snake_case error code; new codes may be added, so keep a fallback.',
      }),
      message: Type.String({
        description: 'What went wrong, for people; names the field when one is at fault.',
      }),
    }),
  },
  {
    $id: 'ErrorResponse',
    description: 'Every error has this shape.',
    examples: [{ error: { code: 'validation_error', message: '`title` must not be empty.' } }],
  },
);

const errorRef = (description: string) => Type.Ref('ErrorResponse', { description });

export const ERROR = {
  400: errorRef(
    '`validation_error` (a field is missing, of the wrong type or out of range; the message names it) or `invalid_body` (malformed JSON).',
  ),
  401: errorRef('`missing_auth` (no `Authorization` header) or `invalid_key` (unknown or revoked key).'),
  403: errorRef('`forbidden`: the key has no grant on the board, or only `read` for a change.'),
  404: errorRef('`not_found`: the resource does not exist, or belongs to another board, task or key.'),
  409: errorRef('`conflict`: concurrent changes kept the request from completing; retry it.'),
  410: errorRef('`cursor_expired`: the cursor is older than the retention window; start again without one.'),
  422: errorRef('`idempotency_key_reused`: the `Idempotency-Key` was sent before with a different request.'),
  413: errorRef('`payload_too_large`: the body is over the limit (1 MiB; 10 MiB for turns).'),
  415: errorRef('`unsupported_media_type`: bodies must be sent as `application/json`.'),
  429: errorRef('`rate_limited`: too many requests in the window; wait `Retry-After` seconds.'),
  default: errorRef('Any other error (`internal_error`, `unavailable`, ...), in the same shape.'),
} as const;

/** Errors of a read without a board in its path (`GET /boards`, `GET /webhooks`). */
export const LIST_ERRORS = { 401: ERROR[401], 429: ERROR[429], default: ERROR.default } as const;

/** Errors of a read under a board (or a key's own webhook): path and query checks, access, existence. */
export const READ_ERRORS = {
  400: ERROR[400],
  401: ERROR[401],
  403: ERROR[403],
  404: ERROR[404],
  429: ERROR[429],
  default: ERROR.default,
} as const;

/** Errors of a change: a read's, plus a body too large or not JSON and a concurrency conflict. */
export const WRITE_ERRORS = {
  ...READ_ERRORS,
  409: ERROR[409],
  413: ERROR[413],
  415: ERROR[415],
} as const;

/** Errors of a change that needs no board (`POST /boards`, `POST /webhooks`): no 403 or 404. */
export const CREATE_ERRORS = {
  400: ERROR[400],
  401: ERROR[401],
  409: ERROR[409],
  413: ERROR[413],
  415: ERROR[415],
  429: ERROR[429],
  default: ERROR.default,
} as const;

/** Errors of a read of the key's own resource (a webhook): no board, so no 403. */
export const OWN_READ_ERRORS = {
  400: ERROR[400],
  401: ERROR[401],
  404: ERROR[404],
  429: ERROR[429],
  default: ERROR.default,
} as const;

/** Errors of a change to the key's own resource (a webhook). */
export const OWN_WRITE_ERRORS = {
  ...OWN_READ_ERRORS,
  409: ERROR[409],
  413: ERROR[413],
  415: ERROR[415],
} as const;

/** Errors a POST that takes an `Idempotency-Key` adds: the key reused for another request, or in use. */
export const IDEMPOTENT_ERRORS = { 409: ERROR[409], 422: ERROR[422] } as const;
