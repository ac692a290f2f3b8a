import type { ActivityService } from '../../domain/activities/activity-service.js';
import type { AgentService } from '../../domain/agents/agent-service.js';
import type { AssetService } from '../../domain/assets/asset-service.js';
import type { BoardService } from '../../domain/boards/board-service.js';
import type { BoardViewService } from '../../domain/boards/board-view-service.js';
import type { TagColorService } from '../../domain/boards/tag-color-service.js';
import type { CommentService } from '../../domain/comments/comment-service.js';
import type { LaneService } from '../../domain/lanes/lane-service.js';
import type { NotificationService } from '../../domain/notifications/notification-service.js';
import type { KeyConsole } from '../../domain/people/key-console.js';
import type { PeopleService } from '../../domain/people/people-service.js';
import type { SessionService } from '../../domain/people/session-service.js';
import type { SsoService } from '../../domain/people/sso-service.js';
import type { WebhookConsole } from '../../domain/people/webhook-console.js';
import type { ReactionService } from '../../domain/reactions/reaction-service.js';
import type { SearchService } from '../../domain/search/search-service.js';
import type { TaskService } from '../../domain/tasks/task-service.js';
import type { TodoService } from '../../domain/todos/todo-service.js';
import type { TurnService } from '../../domain/turns/turn-service.js';
import type { WebhookService } from '../../domain/webhooks/webhook-service.js';
import type { BoardEventsService } from '../../live/board-events.js';
import type { InboxFeed } from '../../live/notification-feed.js';

/** The domain services the web UI's API calls (http/ names them from domain/, not from the composition root). */
export interface UiServices {
  sessions: SessionService;
  people: PeopleService;
  sso: SsoService;
  keyConsole: KeyConsole;
  webhookConsole: WebhookConsole;
  webhooks: WebhookService;
  activities: ActivityService;
  agents: AgentService;
  boards: BoardService;
  boardView: BoardViewService;
  tagColors: TagColorService;
  boardEvents: BoardEventsService;
  lanes: LaneService;
  tasks: TaskService;
  comments: CommentService;
  todos: TodoService;
  turns: TurnService;
  assets: AssetService;
  reactions: ReactionService;
  search: SearchService;
  notifications: NotificationService;
  inboxFeed: InboxFeed;
}
