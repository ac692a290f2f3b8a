const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `250ms`, `10s`, `5m`, `2h`, `14d` into milliseconds; returns null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]) * (UNITS[match[2] as string] as number);
  return Number.isSafeInteger(value) ? value : null;
}

export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
