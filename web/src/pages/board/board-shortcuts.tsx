import { useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { Modal } from '../../components/dialog';

export const SHORTCUTS: Array<[key: string, what: string]> = [
  ['← ↓ ↑ → or h j k l', 'Go to the card below, above, or in the next lane'],
  ['Enter', 'Open the focused card'],
  ['m', 'Move the focused card to a lane and position'],
  ['a', 'Assign people and agents to the focused card'],
  ['e', 'Edit the focused card’s title in place (Enter saves, Esc cancels)'],
  ['x', 'Archive the focused card (Undo in the message)'],
  ['/', 'Filter tasks'],
  ['n', 'New task in the first lane'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close a dialog or sheet; cancel a drag'],
  ['Space, arrows, Space', 'On a drag handle: pick up, move, drop'],
];

const focus = (selector: string) => {
  const element = document.querySelector<HTMLInputElement>(selector);
  element?.focus();
  element?.select();
};

/**
 * The board's keyboard shortcuts (`?` lists them). They match the key typed, not its physical place, so
 * `?` and `/` work on every layout; none fires while typing in a field.
 */
export function BoardShortcuts() {
  const [help, setHelp] = useState(false);
  const options = { useKey: true, preventDefault: true } as const;
  useHotkeys('/', () => focus('#board-filter'), options);
  useHotkeys('n', () => focus('input[id^="new-task-"]'), options);
  // `?` is typed with Shift on most layouts, and the modifiers must match.
  useHotkeys('shift+?', () => setHelp(true), options);
  return (
    <Modal open={help} onOpenChange={setHelp} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="rounded border border-zinc-300 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-700">
                {key}
              </kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
