import type { Command } from 'commander';
import type { AgentView } from '../domain/agents/agent-service.js';
import type { CliContext } from './server-side.js';

type WithContext = <T>(work: (ctx: CliContext) => Promise<T>) => Promise<T>;

const print = (line: string) => process.stdout.write(`${line}\n`);

/** The shape `--json` prints (the contract's): no timestamps. */
function asJson(agent: AgentView): { id: string; name: string; description: string; active: boolean } {
  return { id: agent.id, name: agent.name, description: agent.description, active: agent.active };
}

function describe(agent: AgentView): string {
  return `${agent.id}\t${agent.name}\t${agent.active ? 'active' : 'deactivated'}\t${agent.description}`;
}

export function registerAgentsCommand(program: Command, withContext: WithContext): void {
  const agents = program
    .command('agents')
    .description('Manage agents: members that act through their API keys');

  agents
    .command('create')
    .description('Create an agent; give it a key with: laneboard keys create --agent ID')
    .requiredOption('--name <name>', 'the name shown on its work (at most 200 characters)')
    .option('--description <text>', 'what the agent does')
    .option('--json', 'print the result as JSON')
    .action(async (options: { name: string; description?: string; json?: boolean }) => {
      const agent = await withContext((ctx) =>
        ctx.services.agents.createAgent(ctx.actor, { name: options.name, description: options.description }),
      );
      print(
        options.json
          ? JSON.stringify(asJson(agent))
          : `Created ${agent.id} (${agent.name}).\nGive it a key with: laneboard keys create --agent ${agent.id} --name NAME --all-boards`,
      );
    });

  agents
    .command('list')
    .description('List agents')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withContext((ctx) => ctx.services.agents.listAgents(ctx.actor));
      if (options.json) print(JSON.stringify(list.map(asJson)));
      else if (list.length === 0)
        print('No agents yet. Create one with: laneboard agents create --name NAME');
      else for (const agent of list) print(describe(agent));
    });

  agents
    .command('deactivate')
    .description('Deactivate an agent: its API keys are revoked, with their webhooks')
    .argument('<id>', 'the agent id (agt_...)')
    .option('--json', 'print the result as JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const agent = await withContext((ctx) => ctx.services.agents.deactivateAgent(ctx.actor, id));
      print(
        options.json
          ? JSON.stringify({ ...asJson(agent), keysRevoked: agent.keysRevoked })
          : `Deactivated ${agent.id} (${agent.name}); ${agent.keysRevoked} key(s) revoked.`,
      );
    });
}
