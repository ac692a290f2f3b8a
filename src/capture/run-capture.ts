import { parseDuration } from '../lib/duration.js';
import { systemClock } from '../lib/time.js';
import { captureClaude } from './capture-claude.js';
import { fileLog } from './capture-log.js';
import { parseHookInput, readStdin } from './hook-input.js';
import { defaultStateDir } from './state-store.js';

const DEFAULT_BUDGET_MS = 10_000;
/** Part of the budget given to reading the hook's JSON. */
const STDIN_TIMEOUT_MS = 2_000;
/** After the budget, this much more before the process is ended whatever is still pending. */
const HARD_STOP_GRACE_MS = 2_000;

/**
 * `laneboard capture claude` as a process: reads the hook's JSON on stdin, captures, logs, and never
 * fails or outlasts its budget (`LANEBOARD_CAPTURE_TIMEOUT`, default 10s), so it cannot block the agent.
 */
export async function runClaudeCapture(taskOption: string | undefined): Promise<void> {
  const env = process.env;
  const stateDir = defaultStateDir(env);
  const log = fileLog(stateDir, systemClock);
  const budgetMs = parseDuration(env.LANEBOARD_CAPTURE_TIMEOUT ?? '') ?? DEFAULT_BUDGET_MS;
  const hardStop = setTimeout(() => {
    log.error(`run did not finish within ${budgetMs + HARD_STOP_GRACE_MS} ms; stopped.`);
    process.exit(0);
  }, budgetMs + HARD_STOP_GRACE_MS);
  hardStop.unref();
  try {
    const input = parseHookInput(await readStdin(process.stdin, Math.min(STDIN_TIMEOUT_MS, budgetMs)));
    if (!input) {
      log.error('stdin is not a Claude Code hook JSON object with transcript_path; nothing sent.');
      return;
    }
    // Claude Code runs hooks in the project directory; some events' input carries no `cwd`.
    const located = { ...input, cwd: input.cwd ?? process.cwd() };
    await captureClaude({ input: located, taskOption, env, stateDir, clock: systemClock, budgetMs, log });
  } catch (error) {
    // Unexpected (a file system error): logged by name and message only, never a stack with paths or data.
    log.error(`run failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  } finally {
    clearTimeout(hardStop);
  }
}
