import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { bodyAjv, textAjv } from '../schemas/validation.js';

export { compileBodyValidator, describeValidationError } from '../schemas/validation.js';

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};

/** The `charset` parameter of a Content-Type header (unquoted, lower case), or null without one. */
export function charsetOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  for (const parameter of contentType.split(';').slice(1)) {
    const equals = parameter.indexOf('=');
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    return parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return null;
}

/** UTF-8 under the names clients send it (JSON is UTF-8: RFC 8259 §8.1). */
const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * JSON bodies as Fastify parses them (prototype-poisoning protection included), except that an empty
 * body is no body: many clients send `Content-Type: application/json` on every request, DELETEs too.
 * A route that needs a body then answers validation_error; one without a body schema ignores it.
 * A charset other than UTF-8 is refused (415) rather than read as UTF-8, whether or not a body came.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && !UTF8.has(charset)) {
      done(
        new DomainError(
          'unsupported_media_type',
          'Request bodies must be JSON in UTF-8: send Content-Type: application/json (charset=utf-8 or none).',
        ),
        undefined,
      );
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
