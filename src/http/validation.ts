import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { bodyAjv, textAjv } from '../schemas/validation.js';

export { compileBodyValidator, describeValidationError } from '../schemas/validation.js';

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};

/**
 * JSON bodies as Fastify parses them (prototype-poisoning protection included), except that an empty
 * body is no body: many clients send `Content-Type: application/json` on every request, DELETEs too.
 * A route that needs a body then answers validation_error; one without a body schema ignores it.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
