import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { migrateToLatest, SchemaOutdatedError, SchemaTooNewError } from '../db/migrate.js';
import { DomainError } from '../domain/errors.js';
import { createLogger, createRuntime } from '../runtime.js';
import { registerCaptureCommand } from './capture-command.js';
import { type CliContext, openCliContext } from './context.js';
import { registerKeysCommand } from './keys-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { registerUsersCommand } from './users-command.js';

async function withContext<T>(work: (ctx: CliContext) => Promise<T>): Promise<T> {
  const ctx = await openCliContext();
  try {
    return await work(ctx);
  } finally {
    await ctx.runtime.close();
  }
}

/**
 * Usage errors are one line on stderr, as scripts expect: commander's `error: …` with its suggestion
 * joined on, or, for a command group called without a command, its usage line.
 */
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
      // Loaded only here: the HTTP stack is not needed by the other commands, which start faster.
      const { serve } = await import('../main.js');
      await serve();
      // serve() keeps the process alive until a signal.
      await new Promise(() => {});
    });

  program
    .command('migrate')
    .description('Apply pending database migrations')
    .action(async () => {
      const config = loadConfig();
      // Migrated here rather than by the runtime, so the command can print what it applied.
      const runtime = await createRuntime(
        { ...config, databasePoolSize: 1 },
        { migrations: 'skip', log: createLogger('warn') },
      );
      try {
        const applied = await migrateToLatest(runtime.database);
        process.stdout.write(
          applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n',
        );
      } finally {
        await runtime.close();
      }
    });

  registerKeysCommand(program, withContext);
  registerUsersCommand(program, withContext);
  registerCaptureCommand(program);
  registerMcpCommand(program);
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
    if (error instanceof ConfigError) {
      process.stderr.write(`laneboard: invalid configuration: ${error.message}\n`);
      return 1;
    }
    if (error instanceof SchemaOutdatedError || error instanceof SchemaTooNewError) {
      process.stderr.write(`laneboard: ${error.message}\n`);
      return 1;
    }
    if (error instanceof DomainError) {
      process.stderr.write(`laneboard: ${error.message}\n`);
      return error.code === 'validation_error' ? 2 : 1;
    }
    process.stderr.write(`laneboard: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
