import type { AssetRow } from '../../db/schema.js';
import type { AuthorSource } from '../actor.js';
import { invalid } from '../errors.js';

export interface Asset {
  id: string;
  taskId: string;
  filename: string;
  contentType: string;
  size: number;
  /** Lowercase hex SHA-256 of the bytes; also the download's ETag. */
  sha256: string;
  source: AuthorSource;
  createdAt: string;
}

export function toAsset(row: AssetRow): Asset {
  return {
    id: row.id,
    taskId: row.task_id,
    filename: row.filename,
    contentType: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    source: row.source,
    createdAt: row.created_at,
  };
}

export const MAX_FILENAME_LENGTH = 255;
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

// Control characters would corrupt headers and logs; they have no place in a file name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The file name as sent (a client's path already removed by the parser), 1..255 characters. */
export function checkFilename(filename: string): string {
  if (filename.trim().length === 0)
    throw invalid('file', 'must have a file name (the part\'s filename="...").');
  if (filename.length > MAX_FILENAME_LENGTH) {
    throw invalid('file', `must have a file name of at most ${MAX_FILENAME_LENGTH} characters.`);
  }
  if (CONTROL.test(filename)) throw invalid('file', 'must have a file name without control characters.');
  return filename;
}

// type/subtype made of RFC 9110 token characters; parameters are not kept.
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

/** The part's media type, lowercased, or application/octet-stream when it is missing or malformed. */
export function normaliseContentType(contentType: string | undefined): string {
  const bare = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE.test(bare) && bare.length <= 255 ? bare : DEFAULT_CONTENT_TYPE;
}
