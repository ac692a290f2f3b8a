import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';

/** One complete JSONL line and the byte offset just past its newline. */
export interface TranscriptLine {
  text: string;
  end: number;
}

export interface TranscriptChunk {
  lines: TranscriptLine[];
  /** The file's size when read. */
  size: number;
}

/**
 * The complete lines from `offset` on. A last line without its newline is still being written and is left
 * for the next run.
 */
export async function readCompleteLines(file: string, offset: number): Promise<TranscriptChunk> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (offset >= size) return { lines: [], size };
    const buffer = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    const data = buffer.subarray(0, bytesRead);
    const lines: TranscriptLine[] = [];
    let start = 0;
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
      lines.push({ text: data.subarray(start, nl).toString('utf8'), end: offset + nl + 1 });
      start = nl + 1;
    }
    return { lines, size };
  } finally {
    await handle.close();
  }
}

/** How many bytes at each end of the sent part identify it. */
const FINGERPRINT_BYTES = 4096;

/**
 * A hash of the first bytes of the file and of the bytes just before `offset`: if either changed, the
 * part already sent was rewritten (compaction, resume), even when the file did not shrink.
 */
export async function fingerprint(file: string, offset: number): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const hash = createHash('sha256');
    for (const start of [0, Math.max(0, offset - FINGERPRINT_BYTES)]) {
      const buffer = Buffer.alloc(Math.min(FINGERPRINT_BYTES, offset));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}
