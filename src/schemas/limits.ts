/**
 * Length limits of the contract, applied after trimming. The request schemas carry them (so validation
 * and the OpenAPI document agree) and the domain applies them to every entry point (CLI, web UI, MCP).
 */
export const LIMITS = {
  boardName: 200,
  laneName: 200,
  taskTitle: 500,
  taskDescription: 100_000,
  commentBody: 50_000,
  authorName: 200,
  todoText: 2_000,
  turnContent: 1024 * 1024,
  turnSourceId: 200,
  tagCount: 50,
  tagLength: 50,
} as const;
