import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors.js';
import { loggableError } from '../lib/loggable-error.js';
import { discardBody } from './discard-body.js';
import { errorBody, STATUS_BY_CODE } from './error-status.js';
import { describeValidationError } from './validation.js';

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_TYPE: 'unsupported_media_type',
  FST_ERR_BAD_URL: 'not_found',
  // No id is longer than the router's parameter limit, so the resource cannot exist.
  FST_ERR_MAX_PARAM_LENGTH: 'not_found',
};

const FRAMEWORK_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_body: 'The request body is not valid JSON.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Request bodies must be sent with Content-Type: application/json.',
  not_found: 'Not found.',
};

function codeForStatus(status: number): ErrorCode {
  const entry = Object.entries(STATUS_BY_CODE).find(([code, s]) => s === status && code !== 'invalid_body');
  return (entry?.[0] as ErrorCode | undefined) ?? 'validation_error';
}

/** Maps every error — domain, validation, framework, unexpected — into `{"error":{"code","message"}}`. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(STATUS_BY_CODE[error.code]).send(errorBody(error.code, error.message));
    }
    if (error.validation) {
      const message = describeValidationError(error.validation as never, error.validationContext ?? 'body');
      return reply.status(400).send(errorBody('validation_error', message));
    }
    const mapped = error.code ? FRAMEWORK_CODES[error.code] : undefined;
    if (mapped === 'payload_too_large' && !(await discardBody(request.raw))) {
      reply.header('Connection', 'close');
    }
    if (mapped) {
      return reply
        .status(STATUS_BY_CODE[mapped])
        .send(errorBody(mapped, FRAMEWORK_MESSAGES[mapped] ?? 'Bad request.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      return reply.status(status).send(errorBody(code, error.message || 'Bad request.'));
    }
    // Unexpected: the log gets the error with the request id; the client gets neither stack nor SQL.
    request.log.error({ err: loggableError(error) }, 'request failed');
    return reply
      .status(500)
      .send(errorBody('internal_error', `An internal error occurred (request id ${request.id}).`));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
}

/**
 * Errors the router raises before a route is found (a malformed percent-encoding, an over-long path
 * parameter): Fastify's `frameworkErrors` option, so they get the error format too.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code = FRAMEWORK_CODES[error.code];
  if (code === 'not_found') {
    reply
      .status(404)
      .send(errorBody('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
    return;
  }
  request.log.error({ err: loggableError(error) }, 'router failed');
  reply
    .status(500)
    .send(errorBody('internal_error', `An internal error occurred (request id ${request.id}).`));
}

/** A socket as Node's HTTP server keeps it: the response it is writing, if any (a private field). */
type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

/** Sockets whose parser error is being answered (the parser may report the same error again). */
const answering = new WeakSet<Socket>();

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (oversized headers, malformed requests).
 * The malformed bytes may follow a request that is still being served on the same connection — a
 * DELETE sent with a body but neither Content-Length nor Transfer-Encoding has no body in HTTP/1.1, so
 * its "body" is read as the next request. That first request runs (and may change data): its own answer
 * goes out first, then the 400 for what followed, and the connection closes. Answering 400 at once and
 * closing would tell the client that a change it made was refused.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || answering.has(socket)) return;
  answering.add(socket);
  const inFlight = (socket as ServerSocket)._httpMessage;
  if (!inFlight || inFlight.writableFinished) {
    answerClientError(error, socket);
    return;
  }
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    answerClientError(error, socket);
  };
  inFlight.once('finish', answer);
  inFlight.once('close', answer);
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (socket.destroyed) return;
  let status = 400;
  let body = errorBody('invalid_body', 'The request is malformed.');
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = errorBody('headers_too_large', 'The request headers are too large.');
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = errorBody('request_timeout', 'The request took too long to arrive.');
  }
  const text = JSON.stringify(body);
  if (socket.writable) {
    const reason =
      status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    // The request was never parsed, so there is no key to count (no X-RateLimit-*), but the answer
    // still carries the headers every response has: a date and a request id to quote.
    const headers = [
      `HTTP/1.1 ${status} ${reason}`,
      `Content-Length: ${Buffer.byteLength(text)}`,
      'Content-Type: application/json; charset=utf-8',
      `Date: ${new Date().toUTCString()}`,
      `X-Request-Id: ${randomUUID()}`,
      'Connection: close',
    ];
    socket.write(`${headers.join('\r\n')}\r\n\r\n${text}`);
  }
  socket.destroy(error);
}
