import { type Command, InvalidArgumentError } from 'commander';
import type { Permission } from '../domain/actor.js';
import type { ApiKeyView, BoardGrant } from '../domain/api-keys/api-key-service.js';
import type { CliContext } from './server-side.js';

type WithContext = <T>(work: (ctx: CliContext) => Promise<T>) => Promise<T>;

/** `BOARD_ID:read|edit`; commander reports the thrown error as a usage error (exit code 2). */
export function parseGrantText(value: string): BoardGrant {
  const match = /^([^:\s]+):(read|edit)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`"${value}" is not BOARD_ID:read or BOARD_ID:edit.`);
  return { boardId: match[1] as string, permission: match[2] as Permission };
}

export function parseGrant(value: string, previous: BoardGrant[] = []): BoardGrant[] {
  return [...previous, parseGrantText(value)];
}

function describe(key: ApiKeyView): string {
  const access = key.allBoards
    ? 'all boards'
    : key.grants.map((g) => `${g.boardId}:${g.permission}`).join(', ');
  return `${key.id}\t${key.name}\t${access || 'no boards'}\t${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}`;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

export function registerKeysCommand(program: Command, withContext: WithContext): void {
  const keys = program.command('keys').description('Manage API keys');

  keys
    .command('create')
    .description('Create an API key with all-boards access or per-board grants')
    .requiredOption('--name <name>', 'a name that says who uses the key')
    .option('--agent <agentId>', 'the key acts as this agent (agt_...)')
    .option('--all-boards', 'grant edit access to every board')
    .option('--grant <board:permission>', 'grant BOARD_ID:read or BOARD_ID:edit (repeatable)', parseGrant, [])
    .option('--json', 'print the result as JSON')
    .action(
      async (
        options: { name: string; agent?: string; allBoards?: boolean; grant: BoardGrant[]; json?: boolean },
        command: Command,
      ) => {
        if (options.allBoards === true && options.grant.length > 0) {
          command.error('error: use either --all-boards or --grant, not both', { exitCode: 2 });
        }
        if (!options.allBoards && options.grant.length === 0) {
          command.error('error: give --all-boards or at least one --grant BOARD_ID:read|edit', {
            exitCode: 2,
          });
        }
        const created = await withContext((ctx) =>
          ctx.services.apiKeys.createKey(ctx.actor, {
            name: options.name,
            allBoards: options.allBoards === true,
            grants: options.grant,
            ...(options.agent === undefined ? {} : { agentId: options.agent }),
          }),
        );
        if (options.json) print(JSON.stringify(created));
        else
          print(
            `Created ${created.id} (${created.name}).\nKey: ${created.key}\nStore it safely; reveal it again with: laneboard keys reveal ${created.id}`,
          );
      },
    );

  keys
    .command('list')
    .description('List API keys (without their values)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withContext((ctx) => ctx.services.apiKeys.listKeys(ctx.actor));
      if (options.json) print(JSON.stringify(list));
      else if (list.length === 0)
        print('No API keys yet. Create one with: laneboard keys create --name NAME --all-boards');
      else for (const key of list) print(describe(key));
    });

  keys
    .command('reveal <id>')
    .description('Print the value of an API key')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const revealed = await withContext((ctx) => ctx.services.apiKeys.revealKey(ctx.actor, id));
      print(options.json ? JSON.stringify(revealed) : revealed.key);
    });

  keys
    .command('grant')
    .description('Grant a key BOARD_ID:read or BOARD_ID:edit (replaces its permission on that board)')
    .argument('<id>', 'the key id (key_...)')
    .argument('<grant>', 'BOARD_ID:read or BOARD_ID:edit', parseGrantText)
    .option('--json', 'print the result as JSON')
    .action(async (id: string, grant: BoardGrant, options: { json?: boolean }) => {
      const key = await withContext((ctx) => ctx.services.apiKeys.grantBoard(ctx.actor, id, grant));
      print(options.json ? JSON.stringify(key) : describe(key));
    });

  keys
    .command('revoke <id>')
    .description('Revoke a key at once; its webhooks are removed')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const key = await withContext((ctx) => ctx.services.apiKeys.revokeApiKey(ctx.actor, id));
      print(options.json ? JSON.stringify(key) : `Revoked ${key.id} (${key.name}).`);
    });
}
