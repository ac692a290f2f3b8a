import type { ActivityRow } from '../../db/schema.js';
import type { Activity, ActivityType } from '../activities/activity-types.js';

/** A stored activity row as every reader shows it (history pages, live streams). */
export function toActivity(row: ActivityRow): Activity {
  return {
    id: Number(row.id),
    type: row.type as ActivityType,
    boardId: row.board_id,
    taskId: row.task_id,
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
    origin: row.origin,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}
