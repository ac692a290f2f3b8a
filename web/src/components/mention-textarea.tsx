import { type KeyboardEvent, type TextareaHTMLAttributes, useId, useRef, useState } from 'react';
import { type Member, useMembers } from '../api/assignees';

/** `@` and what follows it up to the caret: the start of a name (a space allowed, "@Grace Ho"). */
const TYPED_MENTION = /(?:^|[^\p{L}\p{N}_.%+-])@([\p{L}\p{N}_][\p{L}\p{N}_ .-]{0,39})?$/u;
const MAX_OPTIONS = 6;

interface Typed {
  /** Where the `@` is. */
  at: number;
  query: string;
}

function typedMention(textarea: HTMLTextAreaElement): Typed | null {
  if (textarea.selectionStart !== textarea.selectionEnd) return null;
  const before = textarea.value.slice(0, textarea.selectionStart);
  const match = TYPED_MENTION.exec(before);
  if (!match) return null;
  const query = match[1] ?? '';
  return { at: before.length - query.length - 1, query };
}

function matching(members: readonly Member[], query: string): Member[] {
  const wanted = query.toLowerCase();
  const starts = members.filter((m) => m.name.toLowerCase().startsWith(wanted));
  const within = members.filter((m) => !starts.includes(m) && m.name.toLowerCase().includes(wanted));
  return [...starts, ...within].slice(0, MAX_OPTIONS);
}

/**
 * A Markdown textarea (uncontrolled, read through its form) that offers the active people and agents
 * when `@` is typed: arrows choose, Enter or Tab inserts `@Name `, Escape closes. The server finds the
 * mentions in the text itself (longest name wins), so the inserted name is all a mention needs.
 */
export function MentionTextarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [typed, setTyped] = useState<Typed | null>(null);
  const [active, setActive] = useState(0);
  const members = useMembers(typed !== null);
  const options = typed && members.data ? matching(members.data, typed.query) : [];
  const open = options.length > 0;

  const follow = () => {
    const textarea = ref.current;
    const next = textarea ? typedMention(textarea) : null;
    if (next?.at !== typed?.at || next?.query !== typed?.query) setActive(0);
    setTyped(next);
  };

  const insert = (member: Member) => {
    const textarea = ref.current;
    if (!textarea || !typed) return;
    textarea.setRangeText(`@${member.name} `, typed.at, textarea.selectionStart, 'end');
    // Tell React and the form the text changed, as typing would.
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
    setTyped(null);
    textarea.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return props.onKeyDown?.(event);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      const member = options[active] ?? options[0];
      if (member) insert(member);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setTyped(null);
    } else props.onKeyDown?.(event);
  };

  return (
    <div className="relative">
      <textarea
        {...props}
        ref={ref}
        onInput={(event) => {
          follow();
          props.onInput?.(event);
        }}
        onClick={follow}
        onKeyDown={onKeyDown}
        onKeyUp={(event) => {
          if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') follow();
        }}
        onBlur={(event) => {
          setTyped(null);
          props.onBlur?.(event);
        }}
        // A textarea keeps its textbox role (ARIA allows no combobox role on it, and no aria-expanded on a
        // textbox): the list is announced through aria-autocomplete and the active option's id.
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
      />
      {open && (
        <div
          id={listId}
          role="listbox"
          aria-label="Mention a person or agent"
          className="absolute left-2 z-40 mt-1 min-w-56 rounded-md border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
        >
          {options.map((member, index) => (
            <div
              key={member.id}
              tabIndex={-1}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // Chosen on mouse down, before the textarea's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                insert(member);
              }}
              className="flex cursor-default items-center justify-between gap-3 rounded px-2 py-1.5 aria-selected:bg-zinc-100 dark:aria-selected:bg-zinc-800"
            >
              <span className="truncate">{member.name}</span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                {member.type === 'agent' ? 'Agent' : 'Person'}
              </span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
