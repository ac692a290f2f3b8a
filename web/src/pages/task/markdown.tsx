import { lazy, Suspense } from 'react';

// The Markdown renderer and sanitiser are most of the task page's weight: they load in their own chunk,
// after the page shows (test/unit/web-bundle-size.test.ts keeps the pages within their budgets).
const MarkdownRender = lazy(() => import('./markdown-render'));

/** Markdown as stored, rendered sanitised; the plain text shows (escaped) while the renderer loads. */
export function MarkdownText({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="text-sm break-words whitespace-pre-wrap">{text}</div>}>
      <MarkdownRender text={text} />
    </Suspense>
  );
}
