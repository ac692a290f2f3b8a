import { ArrowRight, FolderKanban, Plus, Search, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Board } from '../api/boards';
import type { SearchResult } from '../api/search';
import { searchItem, taskHref } from '../lib/task-anchor';
import { KindBadge, MarkedSnippet, snippetAddsToTitle } from './command-palette-snippet';

/** One choice of the palette: what it shows and what Enter (or a click) does. */
export interface PaletteItem {
  id: string;
  group: 'Tasks' | 'Boards' | 'Actions' | 'Search';
  /** The option's accessible name. */
  label: string;
  content: ReactNode;
  run: () => void;
}

/** What the palette is doing: the root list, picking a board (to go there or to add a task), a title. */
export type PaletteMode =
  | { name: 'root' }
  | { name: 'pick-board'; purpose: 'go' | 'new-task' }
  | { name: 'new-task'; board: Board };

export interface PaletteContext {
  query: string;
  boards: Board[];
  /** The board of the page shown (a board or one of its tasks), if any. */
  currentBoard: Board | undefined;
  results: SearchResult[];
  go: (path: string) => void;
  setMode: (mode: PaletteMode) => void;
}

const ICON = 'size-4 shrink-0 text-zinc-500 dark:text-zinc-400';
const matches = (text: string, query: string) => text.toLowerCase().includes(query.trim().toLowerCase());

const boardItem = (board: Board, run: () => void, verb = ''): PaletteItem => ({
  id: `board-${board.id}`,
  group: 'Boards',
  label: `${verb}${board.name}`,
  content: (
    <>
      <FolderKanban aria-hidden className={ICON} />
      <span className="truncate">{board.name}</span>
    </>
  ),
  run,
});

/** A task found by the search; one option per task (its best match), the snippet marked. */
function taskItem(result: SearchResult, boardName: string | undefined, go: (path: string) => void) {
  return {
    id: `task-${result.taskId}`,
    group: 'Tasks',
    label: `${result.shortId} ${result.title}`,
    content: (
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2">
          <span className="shrink-0 font-mono text-xs text-zinc-600 dark:text-zinc-400">
            {result.shortId}
          </span>
          <span className="truncate font-medium">{result.title}</span>
          <span className="ml-auto flex shrink-0 items-center gap-2">
            {boardName && (
              <span className="hidden max-w-32 truncate text-xs text-zinc-600 sm:inline dark:text-zinc-400">
                {boardName}
              </span>
            )}
            <KindBadge kind={result.kind} />
          </span>
        </span>
        {snippetAddsToTitle(result.snippet, result.title) && (
          <MarkedSnippet
            snippet={result.snippet}
            className="mt-0.5 line-clamp-2 block text-xs text-zinc-600 dark:text-zinc-400"
          />
        )}
      </span>
    ),
    // A comment, todo or turn hit opens the task at that text.
    run: () => go(taskHref(result.boardId, result.taskId, searchItem(result))),
  } satisfies PaletteItem;
}

function actions(context: PaletteContext): PaletteItem[] {
  const { currentBoard, setMode, go } = context;
  const action = (id: string, label: string, icon: ReactNode, run: () => void): PaletteItem => ({
    id,
    group: 'Actions',
    label,
    content: (
      <>
        {icon}
        <span className="truncate">{label}</span>
      </>
    ),
    run,
  });
  const list: PaletteItem[] = [];
  if (currentBoard) {
    list.push(
      action('new-task-here', `New task on ${currentBoard.name}`, <Plus aria-hidden className={ICON} />, () =>
        setMode({ name: 'new-task', board: currentBoard }),
      ),
    );
  }
  list.push(
    action(
      'new-task',
      currentBoard ? 'New task on another board…' : 'New task…',
      <Plus aria-hidden className={ICON} />,
      () => setMode({ name: 'pick-board', purpose: 'new-task' }),
    ),
    action('go-to-board', 'Go to board…', <ArrowRight aria-hidden className={ICON} />, () =>
      setMode({ name: 'pick-board', purpose: 'go' }),
    ),
    action('settings', 'Settings', <Settings aria-hidden className={ICON} />, () => go('/settings')),
  );
  return list;
}

/** The root list: with no query the actions and boards; with one the tasks found, boards and actions. */
export function rootItems(context: PaletteContext): PaletteItem[] {
  const { query, boards, results, go } = context;
  const boardNames = new Map(boards.map((board) => [board.id, board.name]));
  const goToBoard = (board: Board) => boardItem(board, () => go(`/boards/${board.id}`));
  if (query.trim() === '') return [...actions(context), ...boards.slice(0, 8).map(goToBoard)];

  const seen = new Set<string>();
  const tasks = results
    .filter((result) => !seen.has(result.taskId) && seen.add(result.taskId))
    .map((result) => taskItem(result, boardNames.get(result.boardId), go));
  const all: PaletteItem = {
    id: 'search-all',
    group: 'Search',
    label: `Search all results for “${query.trim()}”`,
    content: (
      <>
        <Search aria-hidden className={ICON} />
        <span className="truncate">
          Search all results for <span className="font-medium">“{query.trim()}”</span>
        </span>
      </>
    ),
    run: () => go(`/search?q=${encodeURIComponent(query.trim())}`),
  };
  return [
    ...tasks,
    ...boards.filter((board) => matches(board.name, query)).map(goToBoard),
    ...actions(context).filter((item) => matches(item.label, query)),
    all,
  ];
}

/** Picking a board by name: to open it, or to add a task to it. */
export function boardPickItems(context: PaletteContext, purpose: 'go' | 'new-task'): PaletteItem[] {
  const { query, boards, go, setMode } = context;
  return boards
    .filter((board) => matches(board.name, query))
    .map((board) =>
      boardItem(
        board,
        purpose === 'go' ? () => go(`/boards/${board.id}`) : () => setMode({ name: 'new-task', board }),
      ),
    );
}
