import { Bot, Check, User } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { MAX_ASSIGNEES, type Member, useMembers } from '../api/assignees';
import { ErrorState, Loading } from './ui';

/** A person's or an agent's icon, with its kind for screen readers. */
export function MemberIcon({ type, className = 'size-4' }: { type: Member['type']; className?: string }) {
  const Icon = type === 'agent' ? Bot : User;
  return (
    <>
      <Icon aria-hidden className={`shrink-0 ${className}`} />
      <span className="sr-only">{type === 'agent' ? 'Agent: ' : 'Person: '}</span>
    </>
  );
}

interface Option extends Member {
  assigned: boolean;
  /** Assigned but no longer active: it can only be unassigned. */
  inactive: boolean;
}

/**
 * Chooses a task's assignees among the active people and agents: type to filter, ↑ ↓ to go through the
 * list, Enter (or a click) assigns or unassigns the highlighted member. Deactivated members are not
 * offered; one still assigned is listed so it can be unassigned. At the limit of 10, the others are
 * disabled and a message says why.
 */
export function MemberPicker({
  assigned,
  onChange,
}: {
  assigned: readonly Member[];
  onChange: (member: Member, assign: boolean) => void;
}) {
  const members = useMembers();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const id = useId();
  const full = assigned.length >= MAX_ASSIGNEES;
  const search = useRef<HTMLInputElement>(null);
  // The dialog opens while the members load: the search field takes the focus once it shows.
  const loaded = members.isSuccess;
  useEffect(() => {
    if (loaded) search.current?.focus();
  }, [loaded]);

  const options = useMemo<Option[]>(() => {
    const assignedIds = new Set(assigned.map((a) => a.id));
    const activeIds = new Set((members.data ?? []).map((m) => m.id));
    const all: Option[] = [
      ...(members.data ?? []).map((m) => ({ ...m, assigned: assignedIds.has(m.id), inactive: false })),
      ...assigned.filter((a) => !activeIds.has(a.id)).map((a) => ({ ...a, assigned: true, inactive: true })),
    ];
    const needle = query.trim().toLowerCase();
    return needle ? all.filter((m) => m.name.toLowerCase().includes(needle)) : all;
  }, [members.data, assigned, query]);

  const current = Math.min(active, Math.max(options.length - 1, 0));
  const disabled = (option: Option) => !option.assigned && full;
  const toggle = (option: Option | undefined) => {
    if (!option || disabled(option)) return;
    onChange({ id: option.id, type: option.type, name: option.name }, !option.assigned);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    const to = {
      ArrowDown: Math.min(current + 1, last),
      ArrowUp: Math.max(current - 1, 0),
      Home: 0,
      End: last,
    }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      setActive(to);
      document.getElementById(`${id}-${to}`)?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      toggle(options[current]);
    }
  };

  if (members.isPending) return <Loading label="Loading people and agents…" />;
  if (members.isError) return <ErrorState error={members.error} onRetry={() => members.refetch()} />;
  return (
    <div className="space-y-2">
      <label htmlFor={`${id}-search`} className="sr-only">
        Search people and agents
      </label>
      <input
        ref={search}
        id={`${id}-search`}
        role="combobox"
        aria-expanded
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={options.length > 0 ? `${id}-${current}` : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        placeholder="Search people and agents"
        autoComplete="off"
        className="block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      <div
        id={`${id}-list`}
        role="listbox"
        aria-label="People and agents"
        aria-multiselectable
        className="max-h-72 overflow-y-auto rounded-md border border-zinc-200 p-1 dark:border-zinc-800"
      >
        {options.length === 0 && (
          <p className="px-2 py-1.5 text-sm text-zinc-600 dark:text-zinc-400">
            {query ? `Nobody matches “${query}”.` : 'No active people or agents.'}
          </p>
        )}
        {options.map((option, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the search field's keys drive the list (aria-activedescendant)
          <div
            key={option.id}
            id={`${id}-${index}`}
            role="option"
            // Focus stays in the search field (aria-activedescendant); a click must not take it.
            tabIndex={-1}
            onMouseDown={(event) => event.preventDefault()}
            aria-selected={option.assigned}
            aria-disabled={disabled(option) || undefined}
            data-member-id={option.id}
            onMouseMove={() => index !== current && setActive(index)}
            onClick={() => toggle(option)}
            className={`flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm ${index === current ? 'bg-zinc-100 dark:bg-zinc-800' : ''} ${disabled(option) ? 'opacity-50' : ''}`}
          >
            <MemberIcon type={option.type} />
            <span className="min-w-0 flex-1 truncate">{option.name}</span>
            {option.inactive && <span className="text-xs text-zinc-600 dark:text-zinc-400">deactivated</span>}
            {option.type === 'agent' && !option.inactive && (
              <span className="text-xs text-zinc-600 dark:text-zinc-400">agent</span>
            )}
            <Check
              aria-hidden
              className={`size-4 text-accent-700 dark:text-accent-400 ${option.assigned ? '' : 'invisible'}`}
            />
          </div>
        ))}
      </div>
      <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
        {full
          ? `A task has at most ${MAX_ASSIGNEES} assignees: unassign someone to assign another.`
          : `${assigned.length} of at most ${MAX_ASSIGNEES} assigned. Enter assigns or unassigns.`}
      </p>
    </div>
  );
}
