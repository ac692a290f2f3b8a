import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMembers } from '../../api/assignees';
import type { Board } from '../../api/boards';
import { SEARCH_KINDS, type SearchFilters, type SearchKind } from '../../api/search';
import { Button } from '../../components/ui';

const KINDS = new Set<string>(SEARCH_KINDS.map(([kind]) => kind));

/** The page's search lives in its address (?q=&board=&kind=&assignee=&archived=1): links and Back work. */
export function useSearchFilters(): [SearchFilters, (changes: Partial<SearchFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind');
  const filters: SearchFilters = {
    q: params.get('q') ?? '',
    ...(params.get('board') ? { boardId: params.get('board') as string } : {}),
    ...(kind && KINDS.has(kind) ? { kind: kind as SearchKind } : {}),
    ...(params.get('assignee') ? { assignee: params.get('assignee') as string } : {}),
    ...(params.get('archived') === '1' ? { includeArchived: true } : {}),
  };
  const change = (changes: Partial<SearchFilters>) => {
    const next = { ...filters, ...changes };
    const out = new URLSearchParams();
    if (next.q) out.set('q', next.q);
    if (next.boardId) out.set('board', next.boardId);
    if (next.kind) out.set('kind', next.kind);
    if (next.assignee) out.set('assignee', next.assignee);
    if (next.includeArchived) out.set('archived', '1');
    setParams(out, { replace: changes.q === undefined });
  };
  return [filters, change];
}

const FIELD =
  'block w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';

function Select({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={FIELD}>
        {children}
      </select>
    </div>
  );
}

/** The words (sent on Enter or "Search") and the filters (applied as they change). */
export function SearchForm({
  filters,
  change,
  boards,
}: {
  filters: SearchFilters;
  change: (changes: Partial<SearchFilters>) => void;
  boards: Board[];
}) {
  const [words, setWords] = useState(filters.q);
  // Back and forward (or the palette) change the address: the field follows.
  useEffect(() => setWords(filters.q), [filters.q]);
  const members = useMembers().data ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change({ q: words.trim() });
  };
  const archivedId = useId();
  return (
    <form onSubmit={submit} aria-label="Search" className="mb-4 space-y-3">
      <div className="flex gap-2">
        <input
          type="search"
          aria-label="Search words"
          value={words}
          onChange={(event) => setWords(event.target.value)}
          maxLength={200}
          placeholder='Words, "a phrase", -left out'
          className={`${FIELD} py-2`}
        />
        <Button type="submit" variant="primary">
          Search
        </Button>
      </div>
      <div className="grid grid-cols-2 items-end gap-3 sm:grid-cols-4">
        <Select
          label="Board"
          value={filters.boardId ?? ''}
          onChange={(value) => change({ boardId: value || undefined })}
        >
          <option value="">All boards</option>
          {boards.map((board) => (
            <option key={board.id} value={board.id}>
              {board.name}
            </option>
          ))}
        </Select>
        <Select
          label="Kind"
          value={filters.kind ?? ''}
          onChange={(value) => change({ kind: (value || undefined) as SearchKind | undefined })}
        >
          <option value="">Everything</option>
          {SEARCH_KINDS.map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}s
            </option>
          ))}
        </Select>
        <Select
          label="Assignee"
          value={filters.assignee ?? ''}
          onChange={(value) => change({ assignee: value || undefined })}
        >
          <option value="">Anyone</option>
          <option value="me">Me</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
              {member.type === 'agent' ? ' (agent)' : ''}
            </option>
          ))}
        </Select>
        <div className="flex items-center gap-2 pb-2">
          <input
            id={archivedId}
            type="checkbox"
            checked={filters.includeArchived ?? false}
            onChange={(event) => change({ includeArchived: event.target.checked || undefined })}
            className="size-4"
          />
          <label htmlFor={archivedId} className="text-sm">
            Archived too
          </label>
        </div>
      </div>
    </form>
  );
}
