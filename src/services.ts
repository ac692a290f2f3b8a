import { ActivityService } from './domain/activities/activity-service.js';
import { AgentService } from './domain/agents/agent-service.js';
import { ApiKeyService } from './domain/api-keys/api-key-service.js';
import { AssetService, type AssetServiceOptions } from './domain/assets/asset-service.js';
import { BoardService } from './domain/boards/board-service.js';
import { BoardViewService } from './domain/boards/board-view-service.js';
import { TagColorService } from './domain/boards/tag-color-service.js';
import { CommentService } from './domain/comments/comment-service.js';
import { IdempotencyService } from './domain/idempotency/idempotency-service.js';
import { LaneService } from './domain/lanes/lane-service.js';
import {
  NotificationService,
  type NotificationServiceOptions,
} from './domain/notifications/notification-service.js';
import { KeyConsole } from './domain/people/key-console.js';
import { PeopleService } from './domain/people/people-service.js';
import { type PeopleOptions, SessionService } from './domain/people/session-service.js';
import { type SsoOptions, SsoService } from './domain/people/sso-service.js';
import { WebhookConsole } from './domain/people/webhook-console.js';
import { ReactionService } from './domain/reactions/reaction-service.js';
import { SearchService } from './domain/search/search-service.js';
import type { ServiceDeps } from './domain/services.js';
import { TaskService } from './domain/tasks/task-service.js';
import { TodoService } from './domain/todos/todo-service.js';
import { TurnService } from './domain/turns/turn-service.js';
import { WebhookService, type WebhookServiceOptions } from './domain/webhooks/webhook-service.js';
import type { ActivityStreamOptions, ActivityStreamService, CommitSource } from './live/activity-stream.js';
import type { BoardEventsOptions, BoardEventsService, ChangeSource } from './live/board-events.js';
import type { InboxFeed } from './live/notification-feed.js';

export interface ServiceOptions {
  /** Webhook URL policy and the dispatcher wake-up; secure defaults (https only, public addresses). */
  webhooks?: WebhookServiceOptions;
  /** Session lifetime and sign-in throttling of the web UI. */
  people?: PeopleOptions;
  /** The change feed the live board streams follow (the runtime's); without it streams hear nothing. */
  changeFeed?: ChangeSource & CommitSource;
  liveEvents?: BoardEventsOptions;
  /** Each person's open tabs hear that their inbox changed (the runtime's); without it, nothing. */
  inboxFeed?: InboxFeed;
  /** The activity stream of integrations (`GET /api/ext/v1/events`): its timings. */
  activityStream?: ActivityStreamOptions;
  /** The asset size limit (LANEBOARD_ASSET_MAX_BYTES); 10 MiB by default. */
  assets?: AssetServiceOptions;
  /** Single sign-on: the email domains whose people join as members at their first sign-in. */
  sso?: SsoOptions;
  /** The inbox: who hears that a person's notifications changed (the runtime's notification feed). */
  notifications?: NotificationServiceOptions;
}

/** For processes without a change feed (none today: the runtime always passes its own). */
const SILENT_FEED: ChangeSource & CommitSource = {
  subscribe: () => () => {},
  subscribeAll: () => () => {},
  ready: async () => {},
};

/**
 * The domain services, built once from shared dependencies; HTTP, CLI, UI and MCP use these. A new
 * feature adds its service here (and its options to ServiceOptions); the runtime builds this once.
 * Without the live board streams (see createServices), so a console process loads no `src/live`.
 */
export function createDomainServices(deps: ServiceDeps, options: ServiceOptions = {}) {
  const apiKeys = new ApiKeyService(deps);
  const webhooks = new WebhookService(deps, options.webhooks);
  const sessions = new SessionService(deps, options.people);
  const people = new PeopleService(deps, sessions);
  const agents = new AgentService(deps);
  return {
    activities: new ActivityService(deps),
    agents,
    apiKeys,
    boards: new BoardService(deps),
    lanes: new LaneService(deps),
    tasks: new TaskService(deps),
    comments: new CommentService(deps),
    todos: new TodoService(deps),
    turns: new TurnService(deps),
    assets: new AssetService(deps, options.assets),
    reactions: new ReactionService(deps),
    search: new SearchService(deps),
    notifications: new NotificationService(deps, options.notifications),
    idempotency: new IdempotencyService(deps),
    boardView: new BoardViewService(deps),
    tagColors: new TagColorService(deps),
    webhooks,
    sessions,
    people,
    sso: new SsoService(deps, sessions, people, options.sso ?? { allowedDomains: [] }),
    keyConsole: new KeyConsole(deps, apiKeys, people, agents),
    webhookConsole: new WebhookConsole(deps, webhooks),
  };
}

export type DomainServices = ReturnType<typeof createDomainServices>;

/** Every service a server uses: the domain services and the live board streams. */
export interface Services extends DomainServices {
  boardEvents: BoardEventsService;
  activityStream: ActivityStreamService;
  inboxFeed: InboxFeed;
}

/**
 * Every service, the live board streams included. Asynchronous because `src/live` is loaded here, not
 * by this module: the CLI's console runtime builds only the domain services (docs/decisions.md).
 */
export async function createServices(deps: ServiceDeps, options: ServiceOptions = {}): Promise<Services> {
  const [{ BoardEventsService }, { ActivityStreamService }] = await Promise.all([
    import('./live/board-events.js'),
    import('./live/activity-stream.js'),
  ]);
  const feed = options.changeFeed ?? SILENT_FEED;
  return {
    ...createDomainServices(deps, options),
    boardEvents: new BoardEventsService(deps, feed, options.liveEvents),
    activityStream: new ActivityStreamService(deps, feed, options.activityStream),
    inboxFeed: options.inboxFeed ?? { subscribe: () => () => {}, ready: async () => {} },
  };
}
