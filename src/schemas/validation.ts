// JSON Schema validation shared by every entry point (HTTP routes, MCP tools): no framework owns it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import formatsPlugin from 'ajv-formats';
import { NOT_BLANK, TRIM } from './text.js';

function makeAjv(coerceTypes: boolean): Ajv {
  // Bodies are validated exactly as sent: no coercion ("3" is not a priority) and no silent removal of
  // unknown fields (they are rejected). Query strings and path parameters are text, so they coerce.
  const ajv = new Ajv({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes,
    strict: false,
    // Errors carry the schema that failed, so a rule's own description can be its message (below).
    verbose: true,
  });
  formatsPlugin.default(ajv);
  // Texts marked `x-trim` are trimmed before their length rules run, as the contract's limits apply
  // after trimming (the domain trims again; it is the rule for every other entry point).
  ajv.addKeyword({
    keyword: TRIM,
    type: 'string',
    modifying: true,
    before: 'maxLength',
    schemaType: 'boolean',
    validate: (trim: boolean, data: string, _schema?: unknown, context?: DataValidationCxt) => {
      if (trim && context?.parentData !== undefined) {
        (context.parentData as Record<string | number, unknown>)[context.parentDataProperty] = data.trim();
      }
      return true;
    },
  });
  return ajv;
}

/** Request bodies (no coercion). */
export const bodyAjv = makeAjv(false);
/** Query strings and path parameters (text, coerced). */
export const textAjv = makeAjv(true);

/** The validator of request bodies, for other entry points that take JSON arguments (the MCP tools). */
export function compileBodyValidator(schema: object): ValidateFunction {
  return bodyAjv.compile(schema);
}

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
  // A conditional rule (`if`/`then`) says in its `then` schema's description what it requires.
  const ruleMessage = error.schemaPath.includes('/then/')
    ? (error.parentSchema?.description as string | undefined)
    : undefined;
  if (ruleMessage) return `\`${field}\` ${ruleMessage}`;
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
      if (params.limit === 1) return `\`${field}\` must not be empty.`;
      return `\`${field}\` must be at least ${String(params.limit)} character(s) long.`;
    case 'maxLength':
      return `\`${field}\` must be at most ${String(params.limit)} characters long.`;
    case 'pattern':
      return params.pattern === NOT_BLANK
        ? `\`${field}\` must not be empty.`
        : `\`${field}\` ${error.message ?? 'is invalid'}.`;
    case 'uniqueItems':
      return `\`${field}\` must not hold the same value twice.`;
    case 'format':
      return `\`${field}\` must be a valid ${String(params.format)}.`;
    default:
      return `\`${field}\` ${error.message ?? 'is invalid'}.`;
  }
}

function article(type: string): string {
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}
