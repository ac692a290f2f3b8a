import {
  type ActivityPage,
  deleteActivitiesBefore,
  listBoardActivities,
  listTaskActivities,
} from '../../db/repositories/activities.js';
import { boardExists } from '../../db/repositories/boards.js';
import { taskExists } from '../../db/repositories/tasks.js';
import type { ActivityRow } from '../../db/schema.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { toActivity } from '../views/activities.js';
import type { Activity } from './activity-types.js';

export const DEFAULT_ACTIVITY_PAGE = 50;
export const MAX_ACTIVITY_PAGE = 200;

export interface ActivityQuery {
  /** Activities older than this id (the previous page's `nextBefore`). */
  before?: number;
  /** Activities newer than this id (a reader catching up from the last id it saw). */
  after?: number;
  /** 1..200, default 50. */
  limit?: number;
  /** For people reading a history: a reorder's todo changes as one `todos.reordered` entry. */
  grouped?: boolean;
}

/** A history entry: an activity, or several todo changes of one reorder shown as one. */
export type HistoryEntry = Omit<Activity, 'type'> & { type: Activity['type'] | 'todos.reordered' };

export interface ActivityList {
  /** Newest first. */
  data: HistoryEntry[];
  /** Pass as `before` for the next (older) page; null when this page is the last. */
  nextBefore: number | null;
}

/** Reads the activity history of a board or a task, newest first, paged by id. */
export class ActivityService {
  constructor(private readonly deps: ServiceDeps) {}

  async listForBoard(actor: Actor, boardId: string, query: ActivityQuery = {}): Promise<ActivityList> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    if (!(await boardExists(db, boardId))) throw notFound('Board');
    const page = toPage(query);
    const rows = await listBoardActivities(db, boardId, { ...page, limit: page.limit + 1 });
    return toList(rows, page.limit, query.grouped === true);
  }

  async listForTask(
    actor: Actor,
    boardId: string,
    taskId: string,
    query: ActivityQuery = {},
  ): Promise<ActivityList> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    if (!(await boardExists(db, boardId))) throw notFound('Board');
    if (!(await taskExists(db, boardId, taskId))) throw notFound('Task');
    const page = toPage(query);
    const rows = await listTaskActivities(db, boardId, taskId, { ...page, limit: page.limit + 1 });
    return toList(rows, page.limit, query.grouped === true);
  }
}

function toPage(query: ActivityQuery): ActivityPage {
  const limit = query.limit ?? DEFAULT_ACTIVITY_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ACTIVITY_PAGE) {
    throw invalid('limit', `must be an integer from 1 to ${MAX_ACTIVITY_PAGE}.`);
  }
  for (const [field, value] of [
    ['before', query.before],
    ['after', query.after],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw invalid(field, 'must be a non-negative integer activity id.');
    }
  }
  return {
    limit,
    ...(query.before === undefined ? {} : { before: query.before }),
    ...(query.after === undefined ? {} : { after: query.after }),
  };
}

function toList(rows: ActivityRow[], limit: number, grouped: boolean): ActivityList {
  const page = rows.slice(0, limit).map(toActivity);
  const last = page[page.length - 1];
  const nextBefore = rows.length > limit && last ? last.id : null;
  return { data: grouped ? groupReorders(page) : page, nextBefore };
}

/**
 * One reorder is one entry of a history, however many todos it moved (each is its own event). The
 * todos one reorder moved share its time as their `updatedAt`.
 */
function groupReorders(page: Activity[]): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let group = null as { entry: HistoryEntry; key: string } | null;
  for (const activity of page) {
    const todo = activity.data.todo as { updatedAt?: unknown } | undefined;
    if (activity.type !== 'todo.updated' || activity.data.reordered !== true) {
      out.push(activity);
      group = null;
      continue;
    }
    const key = JSON.stringify([activity.taskId, activity.actor, todo?.updatedAt]);
    if (group?.key === key) {
      group.entry.data.count = (group.entry.data.count as number) + 1;
      continue;
    }
    group = {
      key,
      entry: { ...activity, type: 'todos.reordered', data: { task_id: activity.data.task_id, count: 1 } },
    };
    out.push(group.entry);
  }
  return out;
}

/** Deletes activities older than the retention, batch by batch; returns how many. */
export async function pruneActivities(
  deps: Pick<ServiceDeps, 'database' | 'clock'>,
  retentionMs: number,
  batch = 500,
): Promise<number> {
  const before = new Date(deps.clock.now() - retentionMs).toISOString();
  let total = 0;
  let deleted: number;
  do {
    deleted = await deleteActivitiesBefore(deps.database.kysely, before, batch);
    total += deleted;
  } while (deleted === batch);
  return total;
}
