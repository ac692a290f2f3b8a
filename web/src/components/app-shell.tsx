import { Bell, ChevronDown, LayoutGrid, LogOut, Settings, User as UserIcon } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Suspense } from 'react';
import { NavLink, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useUnreadCount } from '../api/notifications';
import { useSession, useSignOut } from '../api/session';
import { ROLE_LABELS } from '../lib/format';
import { useInboxEvents } from '../live/use-inbox-events';
import { CommandPaletteButton } from './command-palette-button';
import { menuContainer } from './menu-container';
import { errorMessage, Loading } from './ui';

const NAV_LINK =
  'inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 aria-[current=page]:bg-zinc-100 aria-[current=page]:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-[current=page]:bg-zinc-800 dark:aria-[current=page]:text-white';
const MENU_ITEM =
  'flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800';

function UserMenu() {
  const { data: user } = useSession();
  const signOutRequest = useSignOut();
  const navigate = useNavigate();
  if (!user) return null;
  const signOut = () =>
    signOutRequest.mutate(undefined, {
      onSuccess: () => navigate('/login'),
      onError: (error) => toast.error(errorMessage(error)),
    });
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
        <span className="max-w-28 truncate sm:max-w-40">{user.name}</span>
        <span className="sr-only">, account menu</span>
        <ChevronDown aria-hidden className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={menuContainer()}>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-52 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs text-zinc-600 dark:text-zinc-400">
            {user.email} · {ROLE_LABELS[user.role]}
          </DropdownMenu.Label>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => navigate('/profile')}>
            <UserIcon aria-hidden className="size-4" /> Profile
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={signOut}>
            <LogOut aria-hidden className="size-4" /> Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The inbox link with the unread count, kept current by the inbox stream. */
function InboxLink() {
  useInboxEvents();
  const unread = useUnreadCount().data ?? 0;
  return (
    <NavLink to="/inbox" className={NAV_LINK}>
      <Bell aria-hidden className="size-4" />
      <span className="sr-only sm:not-sr-only">Inbox</span>
      {unread > 0 && (
        <>
          {' '}
          <span
            data-testid="unread-badge"
            className="min-w-5 rounded-full bg-accent-600 px-1.5 text-center text-xs leading-5 font-semibold text-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
          <span className="sr-only"> unread</span>
        </>
      )}
    </NavLink>
  );
}

/** The frame of every signed-in page: a skip link, the header and its navigation, the page. */
export function AppShell() {
  // A board uses the window's whole width (its lanes); other pages read best in a column. A task opened
  // from the board keeps the board wide beneath its panel (the history state of task-panel.tsx), so the
  // board does not jump into a column when the panel opens.
  const overBoard = (useLocation().state as { overBoard?: boolean } | null)?.overBoard === true;
  const onTask = useMatch('/boards/:boardId/tasks/:taskId') !== null;
  const wide = useMatch('/boards/:boardId') !== null || (onTask && overBoard);
  const width = wide ? 'max-w-none' : 'max-w-6xl';
  return (
    <div className="min-h-screen">
      <a
        href="#content"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 dark:bg-zinc-900"
      >
        Skip to content
      </a>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className={`mx-auto flex ${width} items-center gap-2 px-4 py-2`}>
          <NavLink to="/" className="mr-2 hidden font-semibold sm:inline">
            Laneboard
          </NavLink>
          <nav aria-label="Main" className="flex min-w-0 flex-1 items-center gap-1">
            <NavLink to="/" end className={NAV_LINK}>
              <LayoutGrid aria-hidden className="size-4" />{' '}
              <span className="sr-only sm:not-sr-only">Boards</span>
            </NavLink>
            <NavLink to="/settings" className={NAV_LINK}>
              <Settings aria-hidden className="size-4" />{' '}
              <span className="sr-only sm:not-sr-only">Settings</span>
            </NavLink>
          </nav>
          <CommandPaletteButton />
          <InboxLink />
          <UserMenu />
        </div>
      </header>
      <main id="content" tabIndex={-1} className={`mx-auto ${width} px-4 py-4 outline-none`}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
