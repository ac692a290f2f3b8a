import { ApiKeyService } from './domain/api-keys/api-key-service.js';
import { BoardService } from './domain/boards/board-service.js';
import { CommentService } from './domain/comments/comment-service.js';
import { LaneService } from './domain/lanes/lane-service.js';
import type { ServiceDeps } from './domain/services.js';
import { TaskService } from './domain/tasks/task-service.js';
import { TodoService } from './domain/todos/todo-service.js';
import { TurnService } from './domain/turns/turn-service.js';
import { WebhookService, type WebhookServiceOptions } from './domain/webhooks/webhook-service.js';

export interface ServiceOptions {
  /** Webhook URL policy and the dispatcher wake-up; secure defaults (https only, public addresses). */
  webhooks?: WebhookServiceOptions;
}

/** Every domain service, built once from shared dependencies; HTTP, CLI (and later UI, MCP) use these. */
export function createServices(deps: ServiceDeps, options: ServiceOptions = {}) {
  return {
    apiKeys: new ApiKeyService(deps),
    boards: new BoardService(deps),
    lanes: new LaneService(deps),
    tasks: new TaskService(deps),
    comments: new CommentService(deps),
    todos: new TodoService(deps),
    turns: new TurnService(deps),
    webhooks: new WebhookService(deps, options.webhooks),
  };
}

export type Services = ReturnType<typeof createServices>;
