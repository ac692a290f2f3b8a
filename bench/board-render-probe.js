// Installed in the page before React loads (bench/board-open.mjs): a minimal React DevTools hook that
// counts, between start() and stop(), which function components rendered in each commit, by load-free
// evidence: a component that rendered has new hook objects (or, without hooks, new props). Cards are
// the components whose first DOM child is a card's <li data-card-id>; lanes those whose child is the
// lane's <section>. Costs nothing while not counting (it only keeps the last root).
(() => {
  let root = null;
  let seen = new WeakSet();
  let counting = null;
  const COMPONENT = new Set([0, 11, 14, 15]); // function, forwardRef, memo, simple memo
  const walk = (fiber, visit) => {
    const stack = [fiber];
    while (stack.length) {
      const node = stack.pop();
      if (!node) continue;
      visit(node);
      if (node.sibling) stack.push(node.sibling);
      if (node.child) stack.push(node.child);
    }
  };
  const mark = (fiber) => {
    if (!COMPONENT.has(fiber.tag)) return false;
    const evidence = fiber.memoizedState ?? fiber.memoizedProps;
    if (!evidence || typeof evidence !== 'object' || seen.has(evidence)) return false;
    seen.add(evidence);
    return true;
  };
  const kind = (fiber) => {
    const child = fiber.child;
    if (child?.tag !== 5) return null;
    if (child.type === 'li' && child.memoizedProps?.['data-card-id']) return 'cards';
    if (child.type === 'section' && String(child.memoizedProps?.['aria-labelledby']).startsWith('lane-'))
      return 'lanes';
    return null;
  };
  const count = () =>
    walk(root.current, (fiber) => {
      if (!mark(fiber) || !counting) return;
      // A memo wrapper with a comparison is a fiber of its own around its function's: counted once.
      if (fiber.tag === 14) return;
      counting.components++;
      const type = fiber.type;
      const name = type?.displayName ?? type?.name ?? type?.render?.name ?? type?.type?.name ?? '?';
      counting.byName[name] = (counting.byName[name] ?? 0) + 1;
      const what = kind(fiber);
      if (what) counting[what]++;
      if (what === 'cards' && fiber.alternate === null) counting.cardMounts++;
    });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_id, fiberRoot) => {
      root = fiberRoot;
      if (counting) {
        counting.commits++;
        count();
      }
    },
  };
  window.__renders = {
    start() {
      seen = new WeakSet();
      counting = null;
      if (root) walk(root.current, mark);
      counting = { commits: 0, components: 0, cards: 0, cardMounts: 0, lanes: 0, byName: {} };
    },
    // byName: renders per component name (minified names in a production build; BENCH_NAMES=1 prints).
    stop() {
      const result = counting;
      counting = null;
      return result;
    },
  };
})();
