import { type FormEvent, useEffect } from 'react';
import { Link } from 'react-router';
import { useBoards, useCreateBoard } from '../api/boards';
import {
  Button,
  EmptyState,
  ErrorState,
  FormError,
  fieldError,
  Loading,
  PageHeader,
  TextField,
} from '../components/ui';

export default function HomePage() {
  const boards = useBoards();
  const create = useCreateBoard();
  useEffect(() => {
    document.title = 'Boards · Laneboard';
  }, []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    create.mutate(String(new FormData(formElement).get('name')), { onSuccess: () => formElement.reset() });
  };
  return (
    <>
      <PageHeader
        title="Boards"
        description={
          <>
            Agents and scripts reach boards through the external API with a key from{' '}
            <Link to="/settings/keys" className="underline">
              Settings › API Keys
            </Link>
            .
          </>
        }
      />
      <form onSubmit={submit} className="mb-6 flex max-w-md items-end gap-2">
        <div className="flex-1">
          <TextField
            label="New board"
            name="name"
            required
            placeholder="Roadmap"
            error={fieldError(create.error, 'name')}
          />
        </div>
        <Button type="submit" variant="primary" busy={create.isPending}>
          Add board
        </Button>
      </form>
      {create.error && !fieldError(create.error, 'name') && <FormError error={create.error} />}
      {boards.isPending && <Loading label="Loading boards…" />}
      {boards.isError && <ErrorState error={boards.error} onRetry={() => boards.refetch()} />}
      {boards.data?.length === 0 && (
        <EmptyState title="No boards yet">Add the first one above, or create one through the API.</EmptyState>
      )}
      {boards.data && boards.data.length > 0 && (
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {boards.data.map((board) => (
            <li key={board.id} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
              <Link to={`/boards/${board.id}`} className="font-medium hover:underline">
                {board.name}
              </Link>
              <p className="mt-1 font-mono text-xs text-zinc-600 dark:text-zinc-400">{board.id}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
