import { AlertTriangle, Loader2 } from 'lucide-react';
import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ApiError } from '../api/client';
import { formatDateTime, formatRelative } from '../lib/format';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'danger-ghost';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-accent-600 text-white hover:bg-accent-700 disabled:opacity-60',
  secondary:
    'border border-zinc-300 bg-white text-zinc-900 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:opacity-60',
  ghost: 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
  'danger-ghost': 'text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950',
};

export function Button({
  variant = 'secondary',
  busy = false,
  className = '',
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button
      type="button"
      {...props}
      disabled={props.disabled || busy}
      aria-busy={busy || undefined}
      className={`inline-flex min-h-9 items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${className}`}
    >
      {busy && <Loader2 aria-hidden className="size-4 animate-spin" />}
      {children}
    </button>
  );
}

const FIELD =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-500 aria-invalid:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

export function TextField({
  label,
  error,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; hint?: ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  // An error about the value goes once the person edits it, and shows again with the next submit
  // (the same message, if the value is still wrong): a message about what the field no longer holds
  // would only mislead.
  const [editedAway, setEditedAway] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const submitted = () => setEditedAway(null);
    form.addEventListener('submit', submitted);
    return () => form.removeEventListener('submit', submitted);
  }, []);
  if (editedAway !== null && error !== editedAway) setEditedAway(null);
  const shown = error && error !== editedAway ? error : null;
  const describedBy = [hint ? hintId : null, shown ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        {...props}
        onChange={(event) => {
          if (error) setEditedAway(error);
          props.onChange?.(event);
        }}
        aria-invalid={shown ? true : undefined}
        aria-describedby={describedBy}
        className={FIELD}
      />
      {hint && (
        <p id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {shown && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {shown}
        </p>
      )}
    </div>
  );
}

export function SelectField({
  label,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select id={id} {...props} className={FIELD}>
        {children}
      </select>
    </div>
  );
}

/** A form-level error (one not tied to a field), announced to screen readers. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p
      role="alert"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {errorMessage(error)}
    </p>
  );
}

/**
 * The server's message for people: the API marks names of fields and values with Markdown backticks
 * ("`url` must use https://."), which are dropped here rather than shown literally.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return withoutBackticks(error.message);
  return 'Something went wrong.';
}

const withoutBackticks = (message: string) => message.replace(/`([^`]*)`/g, '$1');

/** The message of a validation error that names `field` (the API puts it in backticks), for that field. */
export function fieldError(error: unknown, field: string): string | null {
  if (
    error instanceof ApiError &&
    error.code === 'validation_error' &&
    error.message.includes(`\`${field}\``)
  ) {
    return withoutBackticks(error.message);
  }
  return null;
}

export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'green' | 'amber' | 'red' | 'accent';
  children: ReactNode;
}) {
  const tones = {
    neutral: 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200',
    green: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
    amber: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    red: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
    accent: 'bg-accent-50 text-accent-700 dark:bg-zinc-800 dark:text-accent-400',
  } as const;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-8 text-sm text-zinc-600 dark:text-zinc-400">
      <Loader2 aria-hidden className="size-4 animate-spin" />
      {label}
    </p>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 p-4 text-sm dark:border-red-900"
    >
      <AlertTriangle aria-hidden className="size-4 text-red-700 dark:text-red-400" />
      <span>{errorMessage(error)}</span>
      {onRetry && (
        <Button onClick={onRetry} className="ml-auto">
          Try again
        </Button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
      <p className="font-medium">{title}</p>
      {children && <div className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{children}</div>}
    </div>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-xl font-semibold">{title}</h1>
        {description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function Time({ iso, fallback = 'never' }: { iso: string | null | undefined; fallback?: string }) {
  if (!iso) return <span>{fallback}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}
