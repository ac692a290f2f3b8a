import type { ReactNode } from 'react';
import type { Activity } from '../api/activities';
import { Badge, Time } from './ui';

/** What happened, as the rest of a sentence that starts with who did it. */
const VERBS: Record<string, string> = {
  'task.created': 'created the task',
  'task.updated': 'edited the task',
  'task.moved': 'moved the task',
  'task.archived': 'archived the task',
  'task.unarchived': 'restored the task',
  'task.deleted': 'deleted the task',
  'comment.created': 'commented',
  'comment.deleted': 'deleted a comment',
  'todo.created': 'added a todo',
  'todo.updated': 'changed a todo',
  'todo.deleted': 'deleted a todo',
  'todos.reordered': 'reordered the todos',
  'asset.created': 'attached a file',
  'asset.deleted': 'deleted a file',
  'reaction.created': 'reacted to a comment',
  'reaction.deleted': 'removed a reaction',
  'task.assigned': 'assigned',
  'task.unassigned': 'unassigned',
  'turns.captured': 'captured conversation turns',
  'board.created': 'created the board',
  'board.updated': 'renamed the board',
  'tag.color_changed': 'changed a tag colour',
  'lane.created': 'added a lane',
  'lane.updated': 'changed a lane',
  'lane.deleted': 'deleted a lane',
};

/** Who acted: a person, an agent, or an API key of nobody (the CLI's operator is "the console"). */
const KINDS: Record<Activity['actor']['kind'], string> = {
  user: 'person',
  agent: 'agent',
  api_key: 'API key',
  system: 'console',
};

/** Through what: the web UI, the external API, MCP (an agent's tools) or the command line. */
const ORIGINS: Record<Activity['origin'], string> = { ui: 'web UI', api: 'API', mcp: 'MCP', cli: 'CLI' };

function detail(activity: Activity): string | null {
  const { data } = activity;
  const todo = data.todo as { text?: string } | undefined;
  const asset = data.asset as { filename?: string } | undefined;
  if (todo?.text) return `“${todo.text}”`;
  if (asset?.filename) return asset.filename;
  if (typeof data.content === 'string') return data.content;
  const assignee = data.assignee as { name?: string } | undefined;
  if (assignee?.name) return assignee.name;
  if (typeof data.count === 'number') {
    const plural = data.count === 1 ? '' : 's';
    return activity.type === 'todos.reordered'
      ? `${data.count} todo${plural} moved`
      : `${data.count} turn${plural}`;
  }
  if (typeof data.name === 'string') return `“${data.name}”`;
  if (activity.type === 'tag.color_changed' && typeof data.tag === 'string') {
    return `${data.tag}: ${typeof data.color === 'string' ? data.color : 'its own colour'}`;
  }
  return null;
}

/**
 * History rows: who (and whether a person, an agent or a key), what, through what, when. `subject`
 * names the task a row is about where the list spans a board.
 */
export function ActivityList({
  items,
  subject,
}: {
  items: Activity[];
  subject?: (activity: Activity) => ReactNode;
}) {
  return (
    <ol className="space-y-1.5 text-sm">
      {items.map((activity) => {
        const what = detail(activity);
        return (
          <li
            key={activity.id}
            className="flex flex-wrap items-baseline gap-x-1.5"
            data-activity={activity.type}
          >
            <span className="font-medium">{activity.actor.name}</span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">({KINDS[activity.actor.kind]})</span>
            <span>{VERBS[activity.type] ?? activity.type}</span>
            {subject?.(activity)}
            {what && <span className="min-w-0 truncate text-zinc-700 dark:text-zinc-300">{what}</span>}
            <Badge tone={activity.origin === 'ui' ? 'neutral' : 'accent'}>
              via {ORIGINS[activity.origin]}
            </Badge>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              <Time iso={activity.createdAt} />
            </span>
          </li>
        );
      })}
    </ol>
  );
}
