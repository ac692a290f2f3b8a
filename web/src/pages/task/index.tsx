import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { toast } from 'sonner';
import { PRIORITY_LABELS, useBoardDetail } from '../../api/boards';
import { type TaskChanges, type TaskDetail, useTask, useUpdateTask } from '../../api/tasks';
import { MentionTextarea } from '../../components/mention-textarea';
import {
  Button,
  ErrorState,
  FormError,
  fieldError,
  Loading,
  SelectField,
  TextField,
  Time,
} from '../../components/ui';
import { useTaskEvents } from '../../live/use-board-events';
import { TagChip, TagColorsProvider } from '../board/tag-colors';
import { TaskActivity } from './activity';
import { Assets } from './assets';
import { Assignees } from './assignees';
import { Comments } from './comments';
import { MarkdownText } from './markdown';
import { isOverBoard, TaskOverBoard } from './task-panel';
import { Todos } from './todos';
import { Turns } from './turns';

function EditTask({
  task,
  onSave,
  busy,
  error,
  onCancel,
}: {
  task: TaskDetail;
  onSave: (changes: TaskChanges) => void;
  busy: boolean;
  error: unknown;
  onCancel: () => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSave({
      title: String(form.get('title')),
      description: String(form.get('description')),
      priority: Number(form.get('priority')),
      tags: String(form.get('tags'))
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    });
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <TextField
        label="Title"
        name="title"
        defaultValue={task.title}
        required
        error={fieldError(error, 'title')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Priority" name="priority" defaultValue={String(task.priority)}>
          {PRIORITY_LABELS.map((label, value) => (
            <option key={label} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Tags"
          name="tags"
          defaultValue={task.tags.join(', ')}
          hint="Separated by commas."
          error={fieldError(error, 'tags')}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor="task-description" className="block text-sm font-medium">
          Description (Markdown)
        </label>
        <MentionTextarea
          id="task-description"
          name="description"
          rows={8}
          defaultValue={task.description}
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
      </div>
      {!['title', 'tags'].some((f) => fieldError(error, f)) && <FormError error={error} />}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" busy={busy}>
          Save
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

function TaskPage() {
  const { boardId = '', taskId = '' } = useParams();
  const [editing, setEditing] = useState(false);
  useTaskEvents(boardId, taskId);
  const task = useTask(boardId, taskId);
  const board = useBoardDetail(boardId);
  const save = useUpdateTask(boardId, taskId);
  useEffect(() => {
    document.title = task.data ? `${task.data.title} · Laneboard` : 'Task · Laneboard';
  }, [task.data]);
  if (task.isPending) return <Loading label="Loading task…" />;
  if (task.isError) return <ErrorState error={task.error} onRetry={() => task.refetch()} />;
  const t = task.data;
  const laneName = board.data?.lanes.find((lane) => lane.id === t.laneId)?.name;
  return (
    <TagColorsProvider colors={board.data?.tagColors}>
      <nav
        aria-label="Breadcrumb"
        className="mb-3 flex flex-wrap items-center gap-1 text-sm text-zinc-700 dark:text-zinc-300"
      >
        <Link to="/" className="hover:underline">
          Boards
        </Link>
        <span aria-hidden>/</span>
        <Link to={`/boards/${boardId}`} className="hover:underline">
          {board.data?.name ?? 'Board'}
        </Link>
        <span aria-hidden>/</span>
        <code>{t.shortId}</code>
      </nav>
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="min-w-0 space-y-8">
          {editing ? (
            <EditTask
              task={t}
              onSave={(changes) =>
                save.mutate(changes, {
                  onSuccess: () => {
                    setEditing(false);
                    toast.success('Task saved');
                  },
                })
              }
              busy={save.isPending}
              error={save.error}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <div className="space-y-3">
              <div className="flex items-start gap-3">
                <h1 className="min-w-0 flex-1 text-xl font-semibold break-words">{t.title}</h1>
                <Button onClick={() => setEditing(true)}>Edit</Button>
              </div>
              <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-zinc-700 dark:text-zinc-300">
                <div>
                  <dt className="inline text-zinc-600 dark:text-zinc-400">Lane </dt>
                  <dd className="inline">{laneName ?? '…'}</dd>
                </div>
                <div>
                  <dt className="inline text-zinc-600 dark:text-zinc-400">Priority </dt>
                  <dd className="inline">{PRIORITY_LABELS[t.priority]}</dd>
                </div>
                {t.tags.length > 0 && (
                  <div className="flex flex-wrap items-center gap-1">
                    <dt className="text-zinc-600 dark:text-zinc-400">Tags</dt>
                    {t.tags.map((tag) => (
                      <dd key={tag} className="min-w-0">
                        <TagChip boardId={boardId} tag={tag} />
                      </dd>
                    ))}
                  </div>
                )}
                <div>
                  <dt className="inline text-zinc-600 dark:text-zinc-400">Updated </dt>
                  <dd className="inline">
                    <Time iso={t.updatedAt} />
                  </dd>
                </div>
                {t.archived && <dd>Archived</dd>}
              </dl>
              {t.description ? (
                <MarkdownText text={t.description} />
              ) : (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">No description.</p>
              )}
            </div>
          )}
          <Comments boardId={boardId} taskId={taskId} />
          <Turns boardId={boardId} taskId={taskId} />
        </div>
        <aside aria-label="Assignees, todos, files and activity" className="space-y-8">
          <Assignees boardId={boardId} task={t} />
          <Todos boardId={boardId} taskId={taskId} />
          <Assets boardId={boardId} taskId={taskId} />
          <TaskActivity boardId={boardId} taskId={taskId} />
        </aside>
      </div>
    </TagColorsProvider>
  );
}

/** A task's address: the task page, or a panel over its board when it was opened from the board. */
export default function TaskRoute() {
  const location = useLocation();
  const { boardId = '', taskId = '' } = useParams();
  const task = useTask(boardId, taskId);
  if (!isOverBoard(location.state)) return <TaskPage />;
  return (
    <TaskOverBoard title={task.data?.title ?? 'Task'}>
      <TaskPage />
    </TaskOverBoard>
  );
}
