import { Command, CommanderError } from 'commander';
import { registerAgentsCommand } from './agents-command.js';
import { registerBackupCommand } from './backup-command.js';
import { registerCaptureCommand } from './capture-command.js';
import { CliFailure } from './failure.js';
import { registerKeysCommand } from './keys-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { registerRestoreCommand } from './restore-command.js';
import type { CliContext } from './server-side.js';
import { registerUsersCommand } from './users-command.js';

// This module is the command table only: each command loads what it uses inside its action (the
// runtime and the database in `server-side.ts`, the capture client, the MCP SDK), so `--help` loads
// commander and these files, and the hook and the MCP server start without the server's code
// (docs/performance.md, "CLI start-up"; test/cli/lean-start.test.ts keeps it so).

/** Usage errors are one line on stderr, as scripts expect, with commander's suggestion joined on. */
function oneLineError(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const first = lines[0] ?? '';
  if (first.startsWith('error: ')) return `laneboard: ${lines.join(' ').slice('error: '.length)}`;
  if (first.startsWith('Usage: ')) return `laneboard: a command is required. ${first} (see --help)`;
  return `laneboard: ${first}`;
}

async function withContext<T>(work: (ctx: CliContext) => Promise<T>): Promise<T> {
  const { withCliContext } = await import('./server-side.js');
  return withCliContext(work);
}

function buildProgram(): Command {
  const program = new Command('laneboard')
    .description('Laneboard: a self-hostable task board for teams that work with AI coding agents')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(`${oneLineError(text)}\n`) })
    .showSuggestionAfterError(true);

  program
    .command('serve')
    .description('Serve the API (same as npm start)')
    .action(async () => {
      const { serveCommand } = await import('./server-side.js');
      await serveCommand();
    });

  program
    .command('migrate')
    .description('Apply pending database migrations')
    .action(async () => {
      const { migrateCommand } = await import('./server-side.js');
      await migrateCommand();
    });

  registerKeysCommand(program, withContext);
  registerUsersCommand(program, withContext);
  registerAgentsCommand(program, withContext);
  registerCaptureCommand(program);
  registerMcpCommand(program);
  registerBackupCommand(program);
  registerRestoreCommand(program);
  return program;
}

/** Usage errors exit 2; failures of the operation itself (unknown key, bad config) exit 1. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not failures.
      if (error.exitCode === 0) return 0;
      return 2;
    }
    if (error instanceof CliFailure) {
      process.stderr.write(`laneboard: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`laneboard: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
