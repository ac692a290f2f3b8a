import type { Lane } from '../../api/boards';

/**
 * On a phone a lane takes the screen and the row snaps lane by lane; these tabs bring a lane into
 * view without swiping past the others. Hidden from the small breakpoint up (lanes sit side by side).
 */
export function LaneTabs({ lanes }: { lanes: Lane[] }) {
  if (lanes.length < 2) return null;
  const show = (laneId: string) =>
    document
      .getElementById(`lane-${laneId}`)
      ?.closest('section')
      ?.scrollIntoView({ behavior: 'smooth', block: 'nearest', inline: 'start' });
  return (
    <nav aria-label="Lanes" className="mb-2 flex gap-1 overflow-x-auto sm:hidden">
      {lanes.map((lane) => (
        <button
          key={lane.id}
          type="button"
          onClick={() => show(lane.id)}
          className="shrink-0 rounded-full border border-zinc-300 px-3 py-1 text-xs font-medium dark:border-zinc-700"
        >
          {lane.name}
          <span className="sr-only">, {lane.taskCount} tasks</span>
        </button>
      ))}
    </nav>
  );
}
