import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { AssetService, NewAsset } from '../../domain/assets/asset-service.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { validatorCompiler } from '../validation.js';

/**
 * The upload route's body is read from the multipart stream by readUpload, not validated as a whole;
 * its schema is there for the OpenAPI document only. Params are validated as everywhere else.
 */
export const uploadValidatorCompiler: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

/**
 * Options for @fastify/multipart. busboy may pass one byte more than the limit; stageContent stops at
 * that byte with 413 (the plugin's own size error is off: it would only come after the whole file).
 */
export function multipartOptions(maxBytes: number) {
  return {
    throwFileSizeLimit: false,
    limits: { fileSize: maxBytes + 1, files: 2, fields: 4, parts: 8, fieldSize: 1024, headerPairs: 50 },
  };
}

/**
 * Reads `multipart/form-data` with one file part named `file` and an optional `source` field, streaming
 * the file into the service's size-checked staging (see stageContent). Anything else in the form is a
 * validation error; a body that is not multipart is 415.
 */
export async function readUpload(request: FastifyRequest, assets: AssetService): Promise<NewAsset> {
  if (!request.isMultipart()) {
    throw new DomainError(
      'unsupported_media_type',
      'Upload the file as multipart/form-data with one part named `file`.',
    );
  }
  let upload: Omit<NewAsset, 'source'> | null = null;
  let source: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          throw invalid(
            part.fieldname,
            'is not a known part of the upload: send the file in a part named `file`.',
          );
        }
        if (upload !== null) throw invalid('file', 'must be sent once: the upload holds more than one file.');
        const content = await assets.stage(part.file);
        upload = { filename: part.filename, contentType: part.mimetype, content };
      } else if (part.fieldname === 'source') {
        if (source !== undefined) throw invalid('source', 'must be sent once.');
        source = String(part.value);
      } else if (part.fieldname === 'file') {
        throw invalid('file', 'must be a file part (with a filename="..." in its Content-Disposition).');
      } else {
        throw invalid(part.fieldname, 'is not a known field of the upload.');
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  if (upload === null) throw invalid('file', 'is required: send the file in a multipart part named `file`.');
  return { ...upload, source };
}

/** Multipart parser failures in the error format; they never reach the client as framework errors. */
function uploadError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalid('file', 'must be the only file, with at most the `source` field beside it.');
    case 'FST_PROTO_VIOLATION':
      return new DomainError('validation_error', 'The upload has a field name that is not allowed.');
    default:
      return new DomainError('invalid_body', 'The multipart/form-data body is malformed or incomplete.');
  }
}
