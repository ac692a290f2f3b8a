import type { Command } from 'commander';

/**
 * `laneboard capture claude`: the Claude Code hook (Stop, SessionEnd). Unknown options and extra
 * arguments are tolerated: a hook must exit 0 whatever it is given.
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
      await runClaudeCapture(typeof options.task === 'string' ? options.task : undefined);
    });
}
