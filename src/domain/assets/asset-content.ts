import { createHash } from 'node:crypto';
import { DomainError } from '../errors.js';

/** Bytes per stored chunk: small enough that reading or writing one keeps memory flat. */
export const ASSET_CHUNK_BYTES = 256 * 1024;

/** An upload's bytes, read and checked, waiting to be stored. */
export interface StagedContent {
  /** Full chunks of ASSET_CHUNK_BYTES, the last one possibly shorter; none for an empty file. */
  chunks: Buffer[];
  size: number;
  /** Lowercase hex. */
  sha256: string;
}

export function assetTooLarge(maxBytes: number): DomainError {
  return new DomainError(
    'payload_too_large',
    `The file is larger than the limit of ${maxBytes} bytes (LANEBOARD_ASSET_MAX_BYTES).`,
  );
}

/**
 * Reads an upload into storage-sized chunks, hashing as the bytes arrive. It holds one asset's bytes
 * (plus at most one partly filled chunk of slack) and stops reading, with `payload_too_large`, at the
 * first byte past `maxBytes`, so an oversized upload is never read to its end nor stored.
 */
export async function stageContent(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<StagedContent> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let current = Buffer.allocUnsafe(ASSET_CHUNK_BYTES);
  let filled = 0;
  let size = 0;
  for await (const piece of source) {
    size += piece.byteLength;
    if (size > maxBytes) throw assetTooLarge(maxBytes);
    hash.update(piece);
    let offset = 0;
    while (offset < piece.byteLength) {
      const copied = Buffer.from(piece.buffer, piece.byteOffset + offset, piece.byteLength - offset).copy(
        current,
        filled,
      );
      filled += copied;
      offset += copied;
      if (filled === ASSET_CHUNK_BYTES) {
        chunks.push(current);
        current = Buffer.allocUnsafe(ASSET_CHUNK_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) chunks.push(Buffer.from(current.subarray(0, filled)));
  return { chunks, size, sha256: hash.digest('hex') };
}
