import { Check, ChevronRight } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { toast } from 'sonner';
import type { TagColorEntry } from '../../api/board-view';
import { useSetTagColor } from '../../api/tag-colors';
import { menuContainer } from '../../components/menu-container';
import { errorMessage } from '../../components/ui';
import {
  derivedTagColor,
  isTagColor,
  TAG_COLOR_LABELS,
  TAG_COLORS,
  type TagColorName,
  tagChipClass,
  tagDotClass,
} from './tag-tone';

/*
 * The colours a board chose for its tags (issue 27), handed down once per page by a context rather than
 * through every lane and card: a change re-renders only the tags, and the board's components keep their
 * props. The board page provides its view's colours, the task page its board detail's.
 */
const TagColorsContext = createContext<ReadonlyMap<string, TagColorName>>(new Map());

export function TagColorsProvider({
  colors,
  children,
}: {
  colors: readonly TagColorEntry[] | undefined;
  children: ReactNode;
}) {
  const map = useMemo(() => {
    const chosen = new Map<string, TagColorName>();
    for (const { tag, color } of colors ?? []) if (isTagColor(color)) chosen.set(tag, color);
    return chosen;
  }, [colors]);
  return <TagColorsContext.Provider value={map}>{children}</TagColorsContext.Provider>;
}

/** The colour a tag shows on this board: chosen, else derived from its name. */
export function useTagColor(tag: string): TagColorName {
  return useContext(TagColorsContext).get(tag) ?? derivedTagColor(tag);
}

/** A card's tag: a dot in the tag's colour beside its text (the text keeps the card's contrast). */
export function CardTag({ tag }: { tag: string }) {
  const color = useTagColor(tag);
  return (
    <span className="inline-flex min-w-0 items-center gap-1" data-tag={tag} data-tag-color={color}>
      <span aria-hidden className={`size-2 shrink-0 rounded-full ${tagDotClass(color)}`} />
      <span className="truncate">{tag}</span>
    </span>
  );
}

const MENU_ITEM =
  'flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800';

/** The palette as radio items of a menu: the tag's colour checked, its derived one marked "default". */
function TagColorOptions({ boardId, tag }: { boardId: string; tag: string }) {
  const color = useTagColor(tag);
  const derived = derivedTagColor(tag);
  const setColor = useSetTagColor(boardId);
  const choose = (next: TagColorName) => {
    if (next === color) return;
    setColor.mutate(
      { tag, color: next === derived ? null : next },
      { onError: (error) => toast.error(`The colour was not saved: ${errorMessage(error)}`) },
    );
  };
  return (
    <DropdownMenu.RadioGroup
      value={color}
      onValueChange={(value) => {
        if (isTagColor(value)) choose(value);
      }}
    >
      {TAG_COLORS.map((option) => (
        <DropdownMenu.RadioItem key={option} value={option} className={MENU_ITEM}>
          <span aria-hidden className={`size-3 shrink-0 rounded-full ${tagDotClass(option)}`} />
          <span className="flex-1">
            {TAG_COLOR_LABELS[option]}
            {option === derived && <span className="text-zinc-600 dark:text-zinc-400"> (default)</span>}
          </span>
          <DropdownMenu.ItemIndicator>
            <Check aria-hidden className="size-4" />
          </DropdownMenu.ItemIndicator>
        </DropdownMenu.RadioItem>
      ))}
    </DropdownMenu.RadioGroup>
  );
}

const MENU_CONTENT =
  'z-50 min-w-44 rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-800 dark:bg-zinc-900';

/**
 * A tag as a chip whose menu chooses its colour on the board (for everyone, live). The derived colour
 * is marked "default": choosing it stores nothing. Not modal, like the card menu.
 */
export function TagChip({ boardId, tag }: { boardId: string; tag: string }) {
  const color = useTagColor(tag);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`Tag ${tag}, ${TAG_COLOR_LABELS[color].toLowerCase()}: change colour`}
        data-tag={tag}
        data-tag-color={color}
        className={`inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tagChipClass(color)}`}
      >
        <span aria-hidden className={`size-2 shrink-0 rounded-full ${tagDotClass(color)}`} />
        <span className="truncate">{tag}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={menuContainer()}>
        <DropdownMenu.Content align="start" className={MENU_CONTENT}>
          <DropdownMenu.Label className="px-2 py-1 text-xs text-zinc-600 dark:text-zinc-400">
            Colour of “{tag}” on this board
          </DropdownMenu.Label>
          <TagColorOptions boardId={boardId} tag={tag} />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * The card menu's way to the same choice, one submenu per tag of the card, so a colour can be chosen on
 * the board itself. Rendered only while the card's menu is open: a card costs nothing more.
 */
export function TagColorSubmenus({ boardId, tags }: { boardId: string; tags: readonly string[] }) {
  return tags.map((tag) => (
    <DropdownMenu.Sub key={tag}>
      <DropdownMenu.SubTrigger className={MENU_ITEM}>
        <SubmenuDot tag={tag} />
        <span className="flex-1">Colour of “{tag}”</span>
        <ChevronRight aria-hidden className="size-4" />
      </DropdownMenu.SubTrigger>
      <DropdownMenu.Portal container={menuContainer()}>
        <DropdownMenu.SubContent className={MENU_CONTENT}>
          <TagColorOptions boardId={boardId} tag={tag} />
        </DropdownMenu.SubContent>
      </DropdownMenu.Portal>
    </DropdownMenu.Sub>
  ));
}

function SubmenuDot({ tag }: { tag: string }) {
  return <span aria-hidden className={`size-2 shrink-0 rounded-full ${tagDotClass(useTagColor(tag))}`} />;
}
