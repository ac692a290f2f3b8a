import { useId } from 'react';
import { useBoards } from '../api/boards';
import type { Access, Permission } from '../api/keys';
import { AllOrChosen } from './all-or-chosen';
import { ErrorState, Loading } from './ui';

export type { Access };

/** "All boards", or read/edit per board: the access of an API key. */
export function AccessPicker({ value, onChange }: { value: Access; onChange: (access: Access) => void }) {
  const name = useId();
  const boards = useBoards();
  const permissionOf = (boardId: string) => value.grants.find((g) => g.boardId === boardId)?.permission ?? '';
  const setPermission = (boardId: string, permission: Permission | '') => {
    const others = value.grants.filter((g) => g.boardId !== boardId);
    onChange({ allBoards: false, grants: permission ? [...others, { boardId, permission }] : others });
  };
  return (
    <AllOrChosen
      legend="Access"
      all={value.allBoards}
      onAllChange={(all) => onChange({ allBoards: all, grants: all ? [] : value.grants })}
      allLabel="All boards"
      allHint="edit on every board, present and future"
      chosenLabel="Chosen boards"
    >
      <div className="ml-6 space-y-2">
        {boards.isPending && <Loading label="Loading boards…" />}
        {boards.isError && <ErrorState error={boards.error} onRetry={() => boards.refetch()} />}
        {boards.data?.length === 0 && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            There are no boards yet: choose All boards.
          </p>
        )}
        {boards.data?.map((board) => (
          <div key={board.id} className="flex items-center justify-between gap-2">
            <label htmlFor={`${name}-${board.id}`} className="min-w-0 truncate text-sm">
              {board.name}
            </label>
            <select
              id={`${name}-${board.id}`}
              value={permissionOf(board.id)}
              onChange={(event) => setPermission(board.id, event.target.value as Permission | '')}
              className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            >
              <option value="">No access</option>
              <option value="read">Read</option>
              <option value="edit">Edit</option>
            </select>
          </div>
        ))}
      </div>
    </AllOrChosen>
  );
}

export function AccessChips({ allBoards, grants }: Access) {
  if (allBoards) {
    return (
      <span className="rounded bg-accent-50 px-1.5 py-0.5 text-xs font-medium text-accent-700 dark:bg-zinc-800 dark:text-accent-400">
        All boards
      </span>
    );
  }
  return (
    <span className="flex flex-wrap gap-1">
      {grants.map((grant) => (
        <span
          key={grant.boardId}
          className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800"
          title={`${grant.permission === 'edit' ? 'Read and edit' : 'Read only'}: ${grant.boardName ?? grant.boardId}`}
        >
          {grant.boardName ?? grant.boardId} · <span className="font-medium">{grant.permission}</span>
        </span>
      ))}
    </span>
  );
}
