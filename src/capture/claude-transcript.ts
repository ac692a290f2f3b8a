import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { TurnPayload } from './api-client.js';
import { truncateContent } from './truncate.js';

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

type Block = { type?: unknown; text?: unknown; name?: unknown; input?: unknown };

interface ClaudeLine {
  type?: unknown;
  uuid?: unknown;
  timestamp?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  message?: { content?: unknown };
}

function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter((b): b is Block => typeof b === 'object' && b !== null) : [];
}

function textOf(blocks: Block[]): string {
  return blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '')
    .map((b) => b.text as string)
    .join('\n\n');
}

const TOOL_ARGUMENT_KEYS = [
  'command',
  'file_path',
  'pattern',
  'url',
  'query',
  'path',
  'description',
  'prompt',
];
const SUMMARY_ARGUMENT_CHARS = 80;

/** `Bash(npm test)`: the tool's name and its most telling argument, on one short line. */
function toolSummary(block: Block): string {
  const name = typeof block.name === 'string' ? block.name : 'tool';
  const input =
    typeof block.input === 'object' && block.input !== null ? (block.input as Record<string, unknown>) : {};
  const key = TOOL_ARGUMENT_KEYS.find((k) => typeof input[k] === 'string');
  if (!key) return name;
  const oneLine = (input[key] as string).replace(/\s+/g, ' ').trim();
  const shown =
    oneLine.length > SUMMARY_ARGUMENT_CHARS ? `${oneLine.slice(0, SUMMARY_ARGUMENT_CHARS)}…` : oneLine;
  return `${name}(${shown})`;
}

function timestampOf(value: unknown): string | null {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return null;
  return value;
}

/**
 * Maps one Claude Code transcript line to a turn, or null when it is not one:
 * - only `user` and `assistant` lines; sidechain (sub-agent), meta and compaction-summary lines are skipped;
 * - user text comes from string content or text blocks; a user line carrying only tool results (the
 *   output of the agent's own tool calls, often large) is skipped;
 * - an assistant line's text blocks are its content; with no text but tool calls it becomes a
 *   `toolUseOnly` turn whose content is a one-line summary (`Tool use: Bash(npm test), Read(a.ts)`);
 *   a line with neither (a thinking block alone) is skipped.
 */
export function mapClaudeLine(text: string): TurnPayload | null {
  let line: ClaudeLine;
  try {
    line = JSON.parse(text) as ClaudeLine;
  } catch {
    return null;
  }
  if (typeof line !== 'object' || line === null) return null;
  if (line.type !== 'user' && line.type !== 'assistant') return null;
  if (line.isSidechain === true || line.isMeta === true || line.isCompactSummary === true) return null;
  const sourceId = typeof line.uuid === 'string' && line.uuid !== '' ? line.uuid : null;
  const capturedAt = timestampOf(line.timestamp);
  if (!sourceId || !capturedAt) return null;
  const content = line.message?.content;
  const base = { source: 'claude' as const, sourceId, capturedAt };

  if (typeof content === 'string') {
    if (content.trim() === '') return null;
    return { ...base, role: line.type, content: truncateContent(content) };
  }
  const blocks = blocksOf(content);
  const body = textOf(blocks);
  if (body) return { ...base, role: line.type, content: truncateContent(body) };
  if (line.type === 'user') return null;
  const tools = blocks.filter((b) => b.type === 'tool_use');
  if (tools.length === 0) return null;
  return {
    ...base,
    role: 'assistant',
    content: truncateContent(`Tool use: ${tools.map(toolSummary).join(', ')}`),
    toolUseOnly: true,
  };
}
