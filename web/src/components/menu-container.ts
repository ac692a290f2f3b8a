/**
 * Where dropdown menus are portalled: the page's main landmark, not the end of <body>, so a menu's
 * items are inside a landmark like the rest of the page (axe's `region` rule). Radix positions the
 * menu with `position: fixed`, and <main> has no transform, so the menu shows where it did.
 */
export function menuContainer(): HTMLElement | undefined {
  return document.getElementById('content') ?? undefined;
}
