import type { Command } from 'commander';
import { CliFailure } from './failure.js';

const print = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Runs a backup or restore operation, turning its refusals and a bad configuration into the console's
 * exit 1. Both are loaded only here, so the command table stays light (test/cli/lean-start.test.ts).
 */
export async function asBackupFailure<T>(work: () => Promise<T>): Promise<T> {
  const [{ BackupError }, { ConfigError }] = await Promise.all([
    import('../backup/manifest.js'),
    import('../config.js'),
  ]);
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupError) throw new CliFailure(error.message, 1);
    if (error instanceof ConfigError) throw new CliFailure(`invalid configuration: ${error.message}`, 1);
    throw error;
  }
}

export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description('Write a consistent copy of the database and the master key into DIR (new or empty)')
    .argument('<dir>', 'the directory to create (or an empty one)')
    .action(async (dir: string) => {
      const result = await asBackupFailure(async () => {
        const [{ loadConfig }, { takeBackup }] = await Promise.all([
          import('../config.js'),
          import('../backup/backup.js'),
        ]);
        return takeBackup(loadConfig(), dir);
      });
      if (result.commandToRun !== null) {
        print(`pg_dump is not on PATH: ${result.dir} holds the master key and the manifest only.`);
        print('Complete the backup by running, where pg_dump is installed and DATABASE_URL is set:');
        print(`  ${result.commandToRun}`);
        return;
      }
      print(`Backed up (schema ${result.schemaVersion}) to ${result.dir}: ${result.files.join(', ')}.`);
      print('It holds the master key: keep it as safe as the data directory.');
    });
}
