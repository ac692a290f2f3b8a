import {
  activePeopleAmong,
  alreadyNotified,
  insertNotifications,
  mutedAmong,
  type NewNotificationRow,
  type NotificationKind,
  openTodoCount,
  personAssigneesOfTask,
} from '../../db/repositories/notifications.js';
import type { Executor } from '../../db/schema.js';
import type { Tx } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import type { ActivityConsumer, RecordedActivity } from '../activities/activity-types.js';
import { type Mentioned, mentionsIn } from '../mentions/mentions.js';

/** Told, after commit, which people got new notifications (the live inbox of their open tabs). */
export type NotifiedListener = (personIds: readonly string[]) => void;

interface Intent {
  kind: NotificationKind;
  personIds: string[];
  commentId: string | null;
}

/**
 * A consumer of the activity, like webhook fan-out: writes the notifications a change causes in the
 * change's own transaction (a rolled-back change notifies nobody). People are notified when they are
 * assigned, mentioned (`@name` in a comment or a task description), or when someone else comments on,
 * moves or finishes the todos of a task assigned to them. Never for one's own actions, never for a
 * deactivated person; a muted board notifies only mentions (docs/decisions.md, "Notifications").
 */
export class NotificationWriter implements ActivityConsumer {
  constructor(private readonly onNotified: NotifiedListener = () => {}) {}

  async onRecorded(tx: Tx, activity: RecordedActivity): Promise<void> {
    if (activity.taskId === null) return;
    const intents = await this.intentsOf(tx.db, activity, activity.taskId);
    if (intents.length === 0) return;
    const self = actingPerson(activity);
    const everyone = [...new Set(intents.flatMap((i) => i.personIds))].filter((id) => id !== self);
    const active = await activePeopleAmong(tx.db, everyone);
    const muted = await mutedAmong(tx.db, activity.boardId, [...active]);
    const rows: NewNotificationRow[] = [];
    const notified = new Set<string>();
    for (const intent of intents) {
      for (const personId of intent.personIds) {
        if (personId === self || !active.has(personId) || notified.has(personId)) continue;
        // Muting a board silences everything but a direct mention.
        if (intent.kind !== 'mentioned' && muted.has(personId)) continue;
        notified.add(personId);
        rows.push({
          id: newId('ntf'),
          person_id: personId,
          kind: intent.kind,
          board_id: activity.boardId,
          task_id: activity.taskId,
          comment_id: intent.commentId,
          actor_kind: activity.actor.kind,
          actor_name: activity.actor.name,
          created_at: activity.createdAt,
          read_at: null,
        });
      }
    }
    if (rows.length === 0) return;
    await insertNotifications(tx.db, rows);
    const people = [...notified];
    tx.afterCommit(() => this.onNotified(people));
  }

  /** Who the activity concerns, and how; the first intent naming a person wins (one row per person). */
  private async intentsOf(db: Executor, activity: RecordedActivity, taskId: string): Promise<Intent[]> {
    const data = activity.data;
    switch (activity.type) {
      case 'task.assigned': {
        const assignee = data.assignee as Mentioned | undefined;
        return assignee?.type === 'person'
          ? [{ kind: 'assigned', personIds: [assignee.id], commentId: null }]
          : [];
      }
      case 'comment.created': {
        const commentId = String(data.comment_id);
        const mentioned = people((data.mentions as Mentioned[] | undefined) ?? []);
        return [
          { kind: 'mentioned', personIds: mentioned, commentId },
          { kind: 'commented', personIds: await personAssigneesOfTask(db, taskId), commentId },
        ];
      }
      case 'task.created':
        // The description comes with the activity: a task create reads nothing more without an `@`.
        return [
          {
            kind: 'mentioned',
            personIds: people(await mentionsIn(db, activity.mentionable ?? '')),
            commentId: null,
          },
        ];
      case 'task.updated': {
        const description = (data.changes as { description?: string } | undefined)?.description;
        if (description === undefined) return [];
        // Only the newly mentioned: the previous text is gone, so "new" means not yet notified of a
        // mention in this task's description.
        const mentioned = people(await mentionsIn(db, description));
        const before = await alreadyNotified(db, taskId, 'mentioned', mentioned, {
          unreadOnly: false,
          withoutComment: true,
        });
        return [{ kind: 'mentioned', personIds: mentioned.filter((id) => !before.has(id)), commentId: null }];
      }
      case 'task.moved':
        return [{ kind: 'moved', personIds: await personAssigneesOfTask(db, taskId), commentId: null }];
      case 'todo.updated': {
        const todo = data.todo as { done?: boolean } | undefined;
        // A reorder records todo.updated too (marked `reordered` where the service says so): no news.
        if (todo?.done !== true || data.reordered === true) return [];
        if ((await openTodoCount(db, taskId)) > 0) return [];
        const assignees = await personAssigneesOfTask(db, taskId);
        // An edit of an already finished list would say it again: once while the last one is unread.
        const told = await alreadyNotified(db, taskId, 'todos_done', assignees, {
          unreadOnly: true,
          withoutComment: false,
        });
        return [{ kind: 'todos_done', personIds: assignees.filter((id) => !told.has(id)), commentId: null }];
      }
      default:
        return [];
    }
  }
}

function people(members: readonly Mentioned[]): string[] {
  return members.filter((m) => m.type === 'person').map((m) => m.id);
}

/** The person who acts: signed in, or through a key of theirs (without an agent). */
function actingPerson(activity: RecordedActivity): string | null {
  if (activity.actor.kind === 'user') return activity.actor.id;
  const key = activity.webhookActor;
  return key?.type === 'key' ? (key.person?.id ?? null) : null;
}
