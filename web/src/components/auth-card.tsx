import type { ReactNode } from 'react';

/** The centred card of the pages shown before sign-in (setup, sign-in, invite). */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-semibold">Laneboard</p>
        <div className="rounded-lg border border-zinc-200 p-6 dark:border-zinc-800">
          <h1 className="text-xl font-semibold">{title}</h1>
          {description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
          <div className="mt-5">{children}</div>
        </div>
      </div>
    </main>
  );
}
