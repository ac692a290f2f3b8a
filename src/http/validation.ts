import { Ajv, type ErrorObject } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';

function makeAjv(coerceTypes: boolean): Ajv {
  // Bodies are validated exactly as sent: no coercion ("3" is not a priority) and no silent removal of
  // unknown fields (they are rejected). Query strings and path parameters are text, so they coerce.
  const ajv = new Ajv({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes,
    strict: false,
  });
  formatsPlugin.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};

/** `/turns/0/source` → `turns[0].source`. */
function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
    '',
  );
}

const PART_NAMES: Record<string, string> = {
  body: 'request body',
  querystring: 'query string',
  params: 'path',
  headers: 'headers',
};

/** A message that names the field and the problem, for the first schema violation. */
export function describeValidationError(errors: ErrorObject[], part: string): string {
  const error = errors[0];
  if (!error) return 'The request is invalid.';
  const params = error.params as Record<string, unknown>;
  const where = PART_NAMES[part] ?? part;
  switch (error.keyword) {
    case 'required':
      return `\`${fieldPath(error.instancePath, String(params.missingProperty))}\` is required.`;
    case 'additionalProperties':
      return `\`${fieldPath(error.instancePath, String(params.additionalProperty))}\` is not a known field of the ${where}.`;
  }
  const field = fieldPath(error.instancePath);
  if (field === '') {
    return error.keyword === 'type'
      ? `The ${where} must be a JSON ${String(params.type)}.`
      : `The ${where} ${error.message}.`;
  }
  switch (error.keyword) {
    case 'type':
      return `\`${field}\` must be ${article(String(params.type))}.`;
    case 'enum':
      return `\`${field}\` must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `\`${field}\` must be ${String(params.comparison)} ${String(params.limit)}.`;
    case 'minItems':
      return `\`${field}\` must hold at least ${String(params.limit)} item(s).`;
    case 'maxItems':
      return `\`${field}\` must hold at most ${String(params.limit)} items.`;
    case 'minLength':
      return `\`${field}\` must be at least ${String(params.limit)} character(s) long.`;
    case 'maxLength':
      return `\`${field}\` must be at most ${String(params.limit)} characters long.`;
    case 'format':
      return `\`${field}\` must be a valid ${String(params.format)}.`;
    default:
      return `\`${field}\` ${error.message ?? 'is invalid'}.`;
  }
}

function article(type: string): string {
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}

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
