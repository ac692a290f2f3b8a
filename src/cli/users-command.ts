import { Argument, type Command, Option } from 'commander';
import type { User } from '../domain/people/people-views.js';
import { ROLES } from '../domain/people/roles.js';
import type { CliContext } from './server-side.js';

type WithContext = <T>(work: (ctx: CliContext) => Promise<T>) => Promise<T>;

const print = (line: string) => process.stdout.write(`${line}\n`);

function describe(user: User): string {
  return `${user.id}\t${user.email}\t${user.name}\t${user.role}\t${user.active ? 'active' : 'deactivated'}`;
}

/**
 * The password from LANEBOARD_PASSWORD, or the first line of stdin, so it never appears in the shell's
 * history or the process list.
 */
async function readPassword(): Promise<string> {
  const fromEnv = process.env.LANEBOARD_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(0x0a)) break;
  }
  return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '').trim();
}

const roleOption = () =>
  new Option('--role <role>', 'owner, admin or member').choices(ROLES as string[]).makeOptionMandatory();

export function registerUsersCommand(program: Command, withContext: WithContext): void {
  const users = program.command('users').description('Manage the people who sign in to the web UI');

  users
    .command('create')
    .description('Create a person (password from LANEBOARD_PASSWORD or one line on stdin)')
    .requiredOption('--email <email>', 'their email address (the sign-in name)')
    .requiredOption('--name <name>', 'their name as shown in the UI')
    .addOption(roleOption())
    .option('--json', 'print the result as JSON')
    .action(async (options: { email: string; name: string; role: string; json?: boolean }) => {
      const password = await readPassword();
      const user = await withContext((ctx) =>
        ctx.services.people.createPerson(ctx.actor, { ...options, password }),
      );
      print(options.json ? JSON.stringify(user) : `Created ${user.id} (${user.email}, ${user.role}).`);
    });

  users
    .command('list')
    .description('List people')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withContext((ctx) => ctx.services.people.listPeople(ctx.actor));
      if (options.json) print(JSON.stringify(list));
      else if (list.length === 0)
        print('Nobody yet. Open the web UI to set up the owner, or: laneboard users create');
      else for (const user of list) print(describe(user));
    });

  users
    .command('set-role')
    .description("Change a person's role (the last active owner keeps theirs)")
    .argument('<id>', 'the person id (usr_...)')
    .addArgument(new Argument('<role>', 'owner, admin or member').choices(ROLES as string[]))
    .option('--json', 'print the result as JSON')
    .action(async (id: string, role: string, options: { json?: boolean }) => {
      const user = await withContext((ctx) => ctx.services.people.changeRole(ctx.actor, id, role));
      print(options.json ? JSON.stringify(user) : `${user.id} is now ${user.role}.`);
    });

  users
    .command('deactivate')
    .description('Deactivate a person: their sessions end and their API keys are revoked')
    .argument('<id>', 'the person id (usr_...)')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const user = await withContext((ctx) => ctx.services.people.deactivate(ctx.actor, id));
      print(options.json ? JSON.stringify(user) : `Deactivated ${user.id} (${user.email}).`);
    });

  users
    .command('reset-password')
    .description("Set a person's password (from LANEBOARD_PASSWORD or stdin); their sessions end")
    .argument('<id>', 'the person id (usr_...)')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const password = await readPassword();
      const user = await withContext((ctx) => ctx.services.people.resetPassword(ctx.actor, id, password));
      print(options.json ? JSON.stringify(user) : `Password of ${user.id} (${user.email}) reset.`);
    });
}
