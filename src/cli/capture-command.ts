import type { Command } from 'commander';
import { CliFailure } from './failure.js';

const DEFAULT_STATUS_LIMIT = 10;
const MAX_STATUS_LIMIT = 1000;

/** `--task`: a shortId, or nothing when the option came without a value. */
function taskOf(options: { task?: string | boolean }): string | undefined {
  return typeof options.task === 'string' ? options.task : undefined;
}

/**
 * `laneboard capture claude|copilot`: the agents' hooks. Unknown options and extra arguments are tolerated:
 * a hook must exit 0 whatever it is given. `capture status` shows what the hooks did.
 */
export function registerCaptureCommand(program: Command): void {
  const capture = program.command('capture').description('Capture agent conversation turns into a task');
  capture
    .command('claude')
    .description('Claude Code hook (Stop, SessionEnd): send the transcript’s new turns; always exits 0')
    .option('--task [shortId]', 'task shortId (else LANEBOARD_TASK, .laneboard/task, or the git branch)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (options: { task?: string | boolean }) => {
      // Loaded here so the other commands do not pay for it, and this one loads no database code.
      const { runClaudeCapture } = await import('../capture/run-capture.js');
      await runClaudeCapture(taskOf(options));
    });
  capture
    .command('copilot')
    .description('GitHub Copilot hook (agentStop, sessionEnd): send the session’s new turns; always exits 0')
    .option('--task [shortId]', 'task shortId (else LANEBOARD_TASK, .laneboard/task, or the git branch)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (options: { task?: string | boolean }) => {
      const { runCopilotCapture } = await import('../capture/run-capture.js');
      await runCopilotCapture(taskOf(options));
    });
  capture
    .command('status')
    .description('Per recent transcript: the task, the last turn sent and the last error')
    .option('--json', 'print JSON')
    .option('--limit <n>', `how many transcripts (1..${MAX_STATUS_LIMIT})`, String(DEFAULT_STATUS_LIMIT))
    .action(async (options: { json?: boolean; limit: string }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_STATUS_LIMIT) {
        throw new CliFailure(`--limit must be an integer from 1 to ${MAX_STATUS_LIMIT}.`, 2);
      }
      const { printCaptureStatus } = await import('../capture/capture-status.js');
      await printCaptureStatus({ json: options.json === true, limit });
    });
}
