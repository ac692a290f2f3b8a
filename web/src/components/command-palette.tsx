import { Loader2, Search } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useBoards } from '../api/boards';
import { usePaletteSearch } from '../api/search';
import { boardPickItems, type PaletteItem, type PaletteMode, rootItems } from './command-palette-items';
import { NewTaskStep } from './command-palette-new-task';

/**
 * A pause this long after a keystroke sends the search, so that a burst of keys sends one request. Short
 * (a typist's keys, 100-200 ms apart, then send one each; a newer one aborts the older), because results
 * should show within 150 ms of the last key (issue 29; `bench/palette.mjs`) and the search itself takes
 * 5-20 ms at a million texts.
 */
export const SEARCH_DEBOUNCE_MS = 50;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return value.trim() === '' ? '' : settled;
}

/** Consecutive options of one group, with the index of the first (options are numbered across groups). */
function groupsOf(items: PaletteItem[]) {
  const groups: Array<{ group: PaletteItem['group']; first: number; members: PaletteItem[] }> = [];
  items.forEach((item, index) => {
    const last = groups.at(-1);
    if (last?.group === item.group) last.members.push(item);
    else groups.push({ group: item.group, first: index, members: [item] });
  });
  return groups;
}

const GROUP_TITLES: Record<PaletteItem['group'], string> = {
  Tasks: 'Tasks',
  Search: 'Search',
  Boards: 'Boards',
  Actions: 'Actions',
};

/**
 * The command palette (Ctrl+K / ⌘K): finds tasks (the search API) and boards as one types, and runs
 * the common actions. A combobox whose listbox's active option follows the arrow keys
 * (aria-activedescendant; focus stays in the field); the dialog traps focus and Esc closes it.
 */
export default function CommandPalette({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<PaletteMode>({ name: 'root' });
  const [active, setActive] = useState(0);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const boards = useBoards();
  const onBoard = useMatch('/boards/:boardId/*')?.params.boardId;
  const currentBoard = boards.data?.find((board) => board.id === onBoard);
  const searching = mode.name === 'root';
  const settled = useDebounced(searching ? query : '', SEARCH_DEBOUNCE_MS);
  const search = usePaletteSearch(settled);
  // The answer shown belongs to the latest pause only when its query is the settled one.
  const pending = query.trim() !== '' && searching && (settled !== query.trim() || search.isFetching);

  const close = () => onOpenChange(false);
  const go = (path: string) => {
    close();
    navigate(path);
  };
  const changeMode = (next: PaletteMode) => {
    setMode(next);
    setQuery('');
    inputRef.current?.focus();
  };
  // Every opening starts afresh.
  useEffect(() => {
    if (open) {
      setQuery('');
      setMode({ name: 'root' });
    }
  }, [open]);

  const context = {
    query,
    boards: boards.data ?? [],
    currentBoard,
    results: settled && search.data ? search.data.data : [],
    go,
    setMode: changeMode,
  };
  const items: PaletteItem[] =
    mode.name === 'root'
      ? rootItems(context)
      : mode.name === 'pick-board'
        ? boardPickItems(context, mode.purpose)
        : [];
  const signature = items.map((item) => item.id).join(' ');
  // A new list starts at its first option.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the options change, not on each render
  useEffect(() => setActive(0), [signature]);
  const activeIndex = Math.min(active, items.length - 1);
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (activeIndex >= 0)
      document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = items.length - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (last < 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + items.length) % items.length);
    } else if (event.key === 'Home' && event.ctrlKey) {
      setActive(0);
    } else if (event.key === 'End' && event.ctrlKey) {
      setActive(Math.max(0, last));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      items[activeIndex]?.run();
    } else if (event.key === 'Backspace' && query === '' && mode.name !== 'root') {
      changeMode({ name: 'root' });
    }
  };

  const placeholder =
    mode.name === 'pick-board'
      ? mode.purpose === 'go'
        ? 'Go to board…'
        : 'Add the task to which board?'
      : 'Search tasks, boards and commands…';
  const status = useMemo(() => {
    if (mode.name !== 'root') return `${items.length} boards`;
    if (query.trim() === '') return '';
    if (pending) return 'Searching…';
    if (search.isError) return 'The search failed; try again.';
    const tasks = items.filter((item) => item.group === 'Tasks').length;
    return tasks === 0 ? 'No tasks match.' : `${tasks} ${tasks === 1 ? 'task' : 'tasks'} found.`;
  }, [mode.name, items, query, pending, search.isError]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            inputRef.current?.focus();
          }}
          className="fixed top-[12vh] left-1/2 z-50 flex max-h-[76vh] w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <Dialog.Title className="sr-only">Search and commands</Dialog.Title>
          {mode.name === 'new-task' ? (
            <NewTaskStep board={mode.board} onBack={() => changeMode({ name: 'root' })} go={go} />
          ) : (
            <>
              <div className="flex items-center gap-2 border-b border-zinc-200 px-3 dark:border-zinc-800">
                {pending ? (
                  <Loader2 aria-hidden className="size-4 shrink-0 animate-spin text-zinc-500" />
                ) : (
                  <Search aria-hidden className="size-4 shrink-0 text-zinc-500" />
                )}
                <input
                  ref={inputRef}
                  role="combobox"
                  aria-expanded={items.length > 0}
                  aria-controls={listId}
                  aria-autocomplete="list"
                  aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
                  aria-label={placeholder}
                  placeholder={placeholder}
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                  onKeyDown={onKeyDown}
                  maxLength={200}
                  spellCheck={false}
                  autoComplete="off"
                  className="min-w-0 flex-1 bg-transparent py-3 text-base outline-none placeholder:text-zinc-500 focus-visible:outline-none sm:text-sm"
                />
                <kbd className="hidden rounded border border-zinc-300 px-1 text-xs text-zinc-600 sm:inline dark:border-zinc-700 dark:text-zinc-400">
                  Esc
                </kbd>
              </div>
              <div
                id={listId}
                role="listbox"
                aria-label="Results"
                aria-busy={pending || undefined}
                className={`overflow-y-auto p-1 ${pending ? 'opacity-70' : ''}`}
              >
                {groupsOf(items).map(({ group, first, members }) => (
                  // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are ARIA groups, not form fieldsets
                  <div key={group} role="group" aria-labelledby={`${listId}-${group}`}>
                    <div
                      id={`${listId}-${group}`}
                      className="px-2 pt-2 pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400"
                    >
                      {GROUP_TITLES[group]}
                    </div>
                    {members.map((item, offset) => {
                      const index = first + offset;
                      return (
                        <div
                          key={item.id}
                          id={optionId(index)}
                          role="option"
                          tabIndex={-1}
                          aria-selected={index === activeIndex}
                          data-palette-item={item.id}
                          onMouseMove={() => index !== activeIndex && setActive(index)}
                          // The field keeps the focus (and the typing) when an option is clicked.
                          onMouseDown={(event) => event.preventDefault()}
                          onClick={() => item.run()}
                          onKeyDown={() => undefined}
                          className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm aria-selected:bg-zinc-100 dark:aria-selected:bg-zinc-800"
                        >
                          {item.content}
                        </div>
                      );
                    })}
                  </div>
                ))}
              </div>
              <p
                role="status"
                className="border-t border-zinc-200 px-3 py-1.5 text-xs text-zinc-600 empty:hidden dark:border-zinc-800 dark:text-zinc-400"
              >
                {status}
              </p>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
