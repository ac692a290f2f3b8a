import { MoreHorizontal } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type KeyboardEvent, type PointerEvent, useState } from 'react';
import { useParams } from 'react-router';
import type { Card } from '../../api/boards';
import { menuContainer } from '../../components/menu-container';
import type { CardActions } from './card';
import { TagColorSubmenus } from './tag-colors';

const MENU_ITEM =
  'flex cursor-default items-center justify-between gap-6 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800';

function Key({ children }: { children: string }) {
  return <kbd className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{children}</kbd>;
}

const TRIGGER =
  'shrink-0 rounded p-0.5 text-zinc-600 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 hover:bg-zinc-100 focus:opacity-100 data-[state=open]:opacity-100 dark:text-zinc-400 dark:hover:bg-zinc-800 [@media(hover:none)]:opacity-100';

/**
 * A card's actions. The trigger shows on hover and when the card holds focus (always on a touch
 * screen); each item names its key, which works on the focused card without opening the menu. Not
 * modal: a modal menu hides the rest of the page from screen readers while its links stay focusable.
 *
 * Until first used, the trigger is a plain button: the menu's Radix parts are some twenty components
 * per card, and a lane scrolled fast mounts several cards a frame (issue 27). The press, key or click
 * that arms it opens the menu at once.
 */
export function CardMenu({ card, actions }: { card: Card; actions: CardActions }) {
  const [armed, setArmed] = useState(false);
  if (armed) return <ArmedCardMenu card={card} actions={actions} />;
  const arm = () => setArmed(true);
  return (
    <button
      type="button"
      aria-label={`Actions for ${card.title}`}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      className={TRIGGER}
      onPointerDown={(event: PointerEvent) => {
        if (event.button !== 0 || event.ctrlKey) return;
        // As Radix's trigger does: the press opens the menu and does not move focus.
        event.preventDefault();
        arm();
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
          event.preventDefault();
          arm();
        }
      }}
      onClick={arm}
    >
      <MoreHorizontal aria-hidden className="size-4" />
    </button>
  );
}

function ArmedCardMenu({ card, actions }: { card: Card; actions: CardActions }) {
  const { boardId = '' } = useParams();
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger aria-label={`Actions for ${card.title}`} className={TRIGGER}>
        <MoreHorizontal aria-hidden className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={menuContainer()}>
        <DropdownMenu.Content
          align="end"
          className="z-50 min-w-44 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          {!card.archived && (
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => actions.move(card)}>
              Move to… <Key>m</Key>
            </DropdownMenu.Item>
          )}
          {!card.archived && (
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => actions.assign(card)}>
              Assign… <Key>a</Key>
            </DropdownMenu.Item>
          )}
          {!card.archived && (
            <DropdownMenu.Item className={MENU_ITEM} onSelect={() => actions.editTitle(card)}>
              Edit title <Key>e</Key>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => actions.archive(card)}>
            {card.archived ? 'Unarchive' : 'Archive'} <Key>x</Key>
          </DropdownMenu.Item>
          {card.tags.length > 0 && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
              <TagColorSubmenus boardId={boardId} tags={card.tags} />
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
