import type { TurnPayload } from './api-client.js';
import type { LineMapping } from './batches.js';
import { timestampOf, toolSummary } from './tool-summary.js';
import { truncateContent } from './truncate.js';

/**
 * One line of a Copilot session event log (`events.jsonl`): the envelope the Copilot SDK documents for
 * every persisted session event (docs/decisions.md, "Copilot capture").
 */
interface CopilotEvent {
  type?: unknown;
  id?: unknown;
  timestamp?: unknown;
  /** Set on events a sub-agent produced; absent for the main agent. */
  agentId?: unknown;
  data?: {
    content?: unknown;
    toolRequests?: unknown;
    /** Deprecated sub-agent marker, still honoured for older logs. */
    parentToolCallId?: unknown;
  };
}

type ToolRequest = { name?: unknown; arguments?: unknown };

function toolRequestsOf(value: unknown): ToolRequest[] {
  return Array.isArray(value)
    ? value.filter((r): r is ToolRequest => typeof r === 'object' && r !== null)
    : [];
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * Classifies one line of a Copilot session event log:
 * - `user.message` is a user turn (`data.content`, what the person typed, not the transformed prompt);
 * - `assistant.message` is an assistant turn (`data.content`); with no text but `toolRequests` it is a
 *   `toolUseOnly` turn naming the calls (`Tool use: bash(npm test)`); with neither it is skipped;
 * - events of a sub-agent (`agentId`, or the older `data.parentToolCallId`) and every other event type
 *   (tool executions, reasoning, session lifecycle) are skipped;
 * - a line that is not a JSON object, or a message event without `id`, a valid `timestamp` or `data`, is
 *   malformed.
 * sourceId is the event's `id`, capturedAt its `timestamp`.
 */
export function classifyCopilotLine(text: string): LineMapping {
  let event: CopilotEvent;
  try {
    event = JSON.parse(text) as CopilotEvent;
  } catch {
    return 'malformed';
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'malformed';
  if (typeof event.type !== 'string') return 'malformed';
  if (event.type !== 'user.message' && event.type !== 'assistant.message') return 'skip';
  const sourceId = typeof event.id === 'string' && event.id !== '' ? event.id : null;
  const capturedAt = timestampOf(event.timestamp);
  const data = event.data;
  if (!sourceId || !capturedAt || typeof data !== 'object' || data === null) return 'malformed';
  if (isPresent(event.agentId) || isPresent(data.parentToolCallId)) return 'skip';

  const base = { source: 'copilot' as const, sourceId, capturedAt };
  const content = typeof data.content === 'string' ? data.content : '';
  if (event.type === 'user.message') {
    return content.trim() === '' ? 'skip' : { ...base, role: 'user', content: truncateContent(content) };
  }
  if (content.trim() !== '') return { ...base, role: 'assistant', content: truncateContent(content) };
  const tools = toolRequestsOf(data.toolRequests);
  if (tools.length === 0) return 'skip';
  const turn: TurnPayload = {
    ...base,
    role: 'assistant',
    content: truncateContent(`Tool use: ${tools.map((t) => toolSummary(t.name, t.arguments)).join(', ')}`),
    toolUseOnly: true,
  };
  return turn;
}
