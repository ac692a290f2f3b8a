/** Argument names whose value says best what a tool call did (Claude Code's and Copilot's tools). */
const TOOL_ARGUMENT_KEYS = [
  'command',
  'file_path',
  'pattern',
  'url',
  'query',
  'path',
  'description',
  'prompt',
];
const SUMMARY_ARGUMENT_CHARS = 80;

/** `Bash(npm test)`: the tool's name and its most telling argument, on one short line. */
export function toolSummary(name: unknown, input: unknown): string {
  const shownName = typeof name === 'string' && name !== '' ? name : 'tool';
  const args = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const key = TOOL_ARGUMENT_KEYS.find((k) => typeof args[k] === 'string');
  if (!key) return shownName;
  const oneLine = (args[key] as string).replace(/\s+/g, ' ').trim();
  const shown =
    oneLine.length > SUMMARY_ARGUMENT_CHARS ? `${oneLine.slice(0, SUMMARY_ARGUMENT_CHARS)}…` : oneLine;
  return `${shownName}(${shown})`;
}

/** A timestamp string the API accepts, else null. */
export function timestampOf(value: unknown): string | null {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return null;
  return value;
}
