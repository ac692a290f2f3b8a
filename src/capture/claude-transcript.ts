import type { TurnPayload } from './api-client.js';
import type { LineMapping } from './batches.js';
import { timestampOf, toolSummary } from './tool-summary.js';
import { truncateContent } from './truncate.js';

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

/**
 * Classifies one Claude Code transcript line:
 * - only `user` and `assistant` lines are turns; sidechain (sub-agent), meta and compaction-summary lines
 *   are skipped, as are other line types;
 * - user text comes from string content or text blocks; a user line carrying only tool results (the
 *   output of the agent's own tool calls, often large) is skipped;
 * - an assistant line's text blocks are its content; with no text but tool calls it becomes a
 *   `toolUseOnly` turn whose content is a one-line summary (`Tool use: Bash(npm test), Read(a.ts)`);
 *   a line with neither (a thinking block alone) is skipped;
 * - a line that is not a JSON object, or a user or assistant line without `uuid` or a valid `timestamp`,
 *   is malformed.
 */
export function classifyClaudeLine(text: string): LineMapping {
  let line: ClaudeLine;
  try {
    line = JSON.parse(text) as ClaudeLine;
  } catch {
    return 'malformed';
  }
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return 'malformed';
  if (line.type !== 'user' && line.type !== 'assistant') return 'skip';
  if (line.isSidechain === true || line.isMeta === true || line.isCompactSummary === true) return 'skip';
  const sourceId = typeof line.uuid === 'string' && line.uuid !== '' ? line.uuid : null;
  const capturedAt = timestampOf(line.timestamp);
  if (!sourceId || !capturedAt) return 'malformed';
  const content = line.message?.content;
  const base = { source: 'claude' as const, sourceId, capturedAt };

  if (typeof content === 'string') {
    if (content.trim() === '') return 'skip';
    return { ...base, role: line.type, content: truncateContent(content) };
  }
  const blocks = blocksOf(content);
  const body = textOf(blocks);
  if (body) return { ...base, role: line.type, content: truncateContent(body) };
  if (line.type === 'user') return 'skip';
  const tools = blocks.filter((b) => b.type === 'tool_use');
  if (tools.length === 0) return 'skip';
  return {
    ...base,
    role: 'assistant',
    content: truncateContent(`Tool use: ${tools.map((b) => toolSummary(b.name, b.input)).join(', ')}`),
    toolUseOnly: true,
  };
}

/** The turn a line holds, or null (skipped or malformed). */
export function mapClaudeLine(text: string): TurnPayload | null {
  const mapping = classifyClaudeLine(text);
  return typeof mapping === 'string' ? null : mapping;
}
