import type { Static, TObject } from '@sinclair/typebox';
import type { ApiRequest, ExternalApi } from './external-api.js';

/** What a tool runs with: the external API as the calling key, and the name comments are signed with. */
export interface ToolContext {
  api: ExternalApi;
  /** The MCP client's name (e.g. `claude-code`), used as a comment's `authorName` when none is given. */
  agentName: string;
}

/** A tool's answer: a compact text for the model and the same facts as `structuredContent`. */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

/** Where a tool's fields come from in the external API, so a test can hold the two schemas together. */
export interface RestMapping {
  /** `METHOD /path` as in the OpenAPI document, e.g. `POST /api/ext/v1/boards/{boardId}/tasks`. */
  operation: string;
  /** Path in the tool's input schema to the object whose properties are the request body's. */
  at: string[];
  /** Body field → tool field where the tool takes a name instead of an id (`laneId` → `lane`). */
  renamed?: Record<string, string>;
  /** Body fields the tool does not expose because the server sets them (`source`, `authorName`). */
  fixed?: string[];
}

export interface ToolDefinition<S extends TObject = TObject> {
  name: string;
  description: string;
  input: S;
  /** Read-only tools are marked so clients may run them without asking. */
  readOnly: boolean;
  /** It may overwrite or remove what is there (not only add); read-only tools are not. */
  destructive?: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotent?: boolean;
  /** The shape of its `structuredContent` (the fields a client may rely on; tasks carry more). */
  output: TObject;
  rest?: RestMapping[];
  run(args: Static<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Typed helper so each tool's `run` sees its own argument type. */
export function defineTool<S extends TObject>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

/**
 * A failure the model can act on: the API's error code and message, plus what to do next (the valid
 * lane names, the allowed priorities, the permission needed).
 */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

interface ApiErrorBody {
  error?: { code?: unknown; message?: unknown };
}

const PERMISSION_HINT =
  'This API key may only read that board (or has no grant on it); ask for a key with an edit grant.';

/** Calls the external API and returns the body of a 2xx answer; anything else becomes a ToolError. */
export async function callApi<T>(ctx: ToolContext, request: ApiRequest): Promise<T> {
  const response = await ctx.api.request(request);
  if (response.status >= 200 && response.status < 300) return response.body as T;
  const error = (response.body as ApiErrorBody | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}.`;
  const hints: Record<string, string> = {
    forbidden: PERMISSION_HINT,
    rate_limited: 'Wait a minute before calling again.',
    missing_auth: 'Set LANEBOARD_API_KEY (stdio) or send Authorization: Bearer ak_... (HTTP).',
    invalid_key: 'The API key is wrong or revoked; ask for a new one.',
    idempotency_key_reused: 'Use a new idempotency key for a different request.',
  };
  throw new ToolError(code, message, hints[code]);
}

export const enc = encodeURIComponent;
