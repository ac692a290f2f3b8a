import type { Command } from 'commander';
import { asBackupFailure } from './backup-command.js';

const print = (line: string) => process.stdout.write(`${line}\n`);

export function registerRestoreCommand(program: Command): void {
  program
    .command('restore')
    .description('Restore a backup made by `laneboard backup` into the (missing or empty) data directory')
    .argument('<dir>', 'the backup directory')
    .action(async (dir: string) => {
      const result = await asBackupFailure(async () => {
        const [{ loadConfig }, { restoreBackup }] = await Promise.all([
          import('../config.js'),
          import('../backup/restore.js'),
        ]);
        return restoreBackup(loadConfig(), dir);
      });
      const { manifest } = result;
      const what = `the backup of ${manifest.createdAt} (Laneboard ${manifest.laneboardVersion}, schema ${manifest.schemaVersion})`;
      if (result.commandToRun !== null) {
        print(`pg_restore is not on PATH: ${what} was checked and ${result.target} is ready for it.`);
        print('Complete the restore by running, where pg_restore is installed and DATABASE_URL is set:');
        print(`  ${result.commandToRun}`);
        return;
      }
      print(`Restored ${what} into ${result.target}.`);
      print('Start the server (it applies any newer migrations): laneboard serve');
    });
}
