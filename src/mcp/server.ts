import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import type { ExternalApi } from './external-api.js';
import { PRIORITY_HINT } from './schemas.js';
import { type ToolContext, type ToolDefinition, ToolError } from './tool.js';
import { TOOLS } from './tools/index.js';

export const SERVER_INFO = { name: 'laneboard', version: '0.1.0' };

const INSTRUCTIONS =
  'Laneboard task board. Refer to tasks by shortId and to boards and lanes by name. Lists are paged: ' +
  'follow `more` cursors. Write tools take an optional idempotencyKey: reuse it when retrying.';

interface ServedTool {
  definition: ToolDefinition;
  /** Compiled on the tool's first call: compiling all of them cost every `laneboard mcp` start. */
  validate?: ValidateFunction;
}

/** Plain JSON Schema (TypeBox's symbols dropped), as `tools/list` sends it. */
function jsonSchema(schema: object): Tool['inputSchema'] {
  return JSON.parse(JSON.stringify(schema)) as Tool['inputSchema'];
}

const served: Map<string, ServedTool> = new Map(TOOLS.map((definition) => [definition.name, { definition }]));

// The validator (Ajv, its formats and our keywords) is loaded with the first tool call, not at start.
let validation: Promise<typeof import('../schemas/validation.js')> | null = null;
const loadValidation = () => (validation ??= import('../schemas/validation.js'));

let listing: Tool[] | null = null;

function errorResult(code: string, message: string, hint?: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${code}: ${message}${hint ? `\n${hint}` : ''}` }],
    structuredContent: { error: { code, message, ...(hint ? { hint } : {}) } },
  };
}

/** Runs one tool: arguments checked by the server's own validator, failures turned into tool errors. */
export async function callTool(
  name: string,
  args: Record<string, unknown> | undefined,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const tool = served.get(name);
  if (!tool) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}. Call tools/list for the tools.`);
  }
  const { compileBodyValidator, describeValidationError } = await loadValidation();
  tool.validate ??= compileBodyValidator(tool.definition.input);
  // Ajv fills defaults into the object it checks: give it a copy.
  const input: Record<string, unknown> = structuredClone(args ?? {});
  if (!tool.validate(input)) {
    const message = describeValidationError(tool.validate.errors ?? [], 'arguments');
    const hint = /priority/.test(message) ? PRIORITY_HINT : undefined;
    return errorResult('validation_error', message, hint);
  }
  try {
    const output = await tool.definition.run(input as never, ctx);
    return { content: [{ type: 'text', text: output.text }], structuredContent: output.structured };
  } catch (error) {
    if (error instanceof ToolError) {
      const hint = error.hint ?? (/priority/.test(error.message) ? PRIORITY_HINT : undefined);
      return errorResult(error.code, error.message, hint);
    }
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'TypeError')) {
      // fetch's failures: the server is down, unreachable or too slow.
      return errorResult(
        'unavailable',
        'The Laneboard server did not answer.',
        'Check LANEBOARD_URL and try again.',
      );
    }
    throw error;
  }
}

/** The tools as `tools/list` sends them (built on the first listing). */
export function listTools(): Tool[] {
  listing ??= TOOLS.map((definition) => ({
    name: definition.name,
    description: definition.description,
    inputSchema: jsonSchema(definition.input),
    outputSchema: jsonSchema(definition.output) as Tool['outputSchema'],
    annotations: {
      readOnlyHint: definition.readOnly,
      destructiveHint: definition.destructive === true,
      idempotentHint: definition.readOnly || definition.idempotent === true,
    },
  }));
  return [...listing];
}

/** An MCP server (SDK v1 low-level `Server`) whose tools act through `api` as the calling key. */
export function createMcpServer(api: ExternalApi): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const agentName = server.getClientVersion()?.name ?? 'Agent';
    return callTool(request.params.name, request.params.arguments, { api, agentName });
  });
  return server;
}
