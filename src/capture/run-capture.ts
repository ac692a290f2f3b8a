import { parseDuration } from '../lib/duration.js';
import { systemClock } from '../lib/time.js';
import { captureClaude } from './capture-claude.js';
import { captureCopilot } from './capture-copilot.js';
import { fileLog } from './capture-log.js';
import type { CaptureOptions, CaptureOutcome } from './capture-transcript.js';
import { parseCopilotHookInput } from './copilot-hook-input.js';
import { type HookInput, parseHookInput, readStdin } from './hook-input.js';
import { defaultStateDir } from './state-store.js';

const DEFAULT_BUDGET_MS = 10_000;
/** Part of the budget given to reading the hook's JSON. */
const STDIN_TIMEOUT_MS = 2_000;
/** After the budget, this much more before the process is ended whatever is still pending. */
const HARD_STOP_GRACE_MS = 2_000;

/** What each `capture <agent>` command supplies: how its hook input is read, and the capture itself. */
export interface CaptureAgent {
  /** Names the expected input in the log line when stdin is not it. */
  inputDescription: string;
  parseInput(text: string, env: NodeJS.ProcessEnv): HookInput | null;
  capture(options: CaptureOptions): Promise<CaptureOutcome>;
}

/**
 * `laneboard capture <agent>` as a process: reads the hook's JSON on stdin, captures, logs one line, and
 * never fails or outlasts its budget (`LANEBOARD_CAPTURE_TIMEOUT`, default 10s), so it cannot block the
 * agent.
 */
export async function runCaptureProcess(agent: CaptureAgent, taskOption: string | undefined): Promise<void> {
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
    const input = agent.parseInput(await readStdin(process.stdin, Math.min(STDIN_TIMEOUT_MS, budgetMs)), env);
    if (!input) {
      log.error(`stdin is not ${agent.inputDescription}; nothing sent.`);
      return;
    }
    // Agents run hooks in the project directory; some events' input carries no `cwd`.
    const located = { ...input, cwd: input.cwd ?? process.cwd() };
    await agent.capture({ input: located, taskOption, env, stateDir, clock: systemClock, budgetMs, log });
  } catch (error) {
    // Unexpected (a file system error): logged by name and message only, never a stack with paths or data.
    log.error(`run failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  } finally {
    clearTimeout(hardStop);
  }
}

/** `laneboard capture claude`. */
export function runClaudeCapture(taskOption: string | undefined): Promise<void> {
  const agent: CaptureAgent = {
    inputDescription: 'a Claude Code hook JSON object with transcript_path',
    parseInput: (text) => parseHookInput(text),
    capture: captureClaude,
  };
  return runCaptureProcess(agent, taskOption);
}

/** `laneboard capture copilot`. */
export function runCopilotCapture(taskOption: string | undefined): Promise<void> {
  const agent: CaptureAgent = {
    inputDescription: 'a Copilot hook JSON object with transcriptPath or sessionId',
    parseInput: parseCopilotHookInput,
    capture: captureCopilot,
  };
  return runCaptureProcess(agent, taskOption);
}
