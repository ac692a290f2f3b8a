import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { type Board, useBoardDetail } from '../api/boards';
import { useCreateTaskFromPalette } from '../api/search';
import { Button, FormError } from './ui';

/** The palette's "New task": a title, added to the board's first lane; the new task opens. */
export function NewTaskStep({
  board,
  onBack,
  go,
}: {
  board: Board;
  onBack: () => void;
  go: (path: string) => void;
}) {
  const id = useId();
  const [title, setTitle] = useState('');
  const detail = useBoardDetail(board.id);
  const create = useCreateTaskFromPalette();
  const lane = detail.data?.lanes[0];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!lane || title.trim() === '') return;
    create.mutate(
      { boardId: board.id, laneId: lane.id, title: title.trim() },
      {
        onSuccess: (task) => {
          toast.success(`“${task.title}” added to ${lane.name}`);
          go(`/boards/${board.id}/tasks/${task.id}`);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-3 p-3">
      <div className="flex items-center gap-2">
        <Button variant="ghost" onClick={onBack} aria-label="Back to the command list" className="px-2">
          <ArrowLeft aria-hidden className="size-4" />
        </Button>
        <label htmlFor={id} className="text-sm font-medium">
          New task on {board.name}
          {lane && <span className="font-normal text-zinc-600 dark:text-zinc-400"> · in {lane.name}</span>}
        </label>
      </div>
      <input
        id={id}
        // biome-ignore lint/a11y/noAutofocus: the step's only field, opened by the person choosing it
        autoFocus
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Backspace' && title === '') onBack();
        }}
        placeholder="Title"
        maxLength={200}
        className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      {detail.isSuccess && !lane && (
        <p role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
          {board.name} has no lanes yet.{' '}
          <button type="button" className="underline" onClick={() => go(`/boards/${board.id}`)}>
            Open the board
          </button>{' '}
          to add one.
        </p>
      )}
      <FormError error={detail.error ?? create.error} />
      <div className="flex justify-end">
        <Button
          type="submit"
          variant="primary"
          busy={create.isPending}
          disabled={!lane || title.trim() === ''}
        >
          Create task
        </Button>
      </div>
    </form>
  );
}
