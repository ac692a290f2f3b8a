import { Search } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';

// The palette's code loads on its first opening, not with the first page (the entry's budget).
const CommandPalette = lazy(() => import('./command-palette'));

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The header's search button and the Ctrl+K / ⌘K shortcut, anywhere in the signed-in app (in fields
 * too: the shortcut types nothing). Both open the command palette; the shortcut also closes it.
 */
export function CommandPaletteButton() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const show = (next: boolean) => {
    if (next) setWanted(true);
    setOpen(next);
  };
  useHotkeys(
    'mod+k',
    () => {
      setWanted(true);
      setOpen((was) => !was);
    },
    {
      enableOnFormTags: true,
      enableOnContentEditable: true,
      preventDefault: true,
    },
  );
  const shortcut = isMac ? '⌘K' : 'Ctrl K';
  return (
    <>
      <button
        type="button"
        onClick={() => show(true)}
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
        title={`Search and commands (${shortcut})`}
        className="inline-flex items-center gap-2 rounded-md px-2 py-1.5 sm:border sm:border-zinc-300 sm:px-2.5 dark:sm:border-zinc-700 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
      >
        <Search aria-hidden className="size-4" />
        <span className="sr-only md:not-sr-only">Search…</span>
        <kbd className="hidden rounded border border-zinc-300 px-1 font-sans text-xs md:inline dark:border-zinc-700">
          {shortcut}
        </kbd>
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <CommandPalette open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
