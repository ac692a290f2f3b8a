import { Bot, KeyRound, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type Agent, useAgentKeys, useAgents } from '../../api/agents';
import type { ApiKey } from '../../api/keys';
import { AccessChips } from '../../components/access-picker';
import { Badge, Button, EmptyState, ErrorState, Loading, PageHeader, Time } from '../../components/ui';
import {
  CreateAgentDialog,
  CreateAgentKeyDialog,
  DeactivateAgentDialog,
  EditAgentDialog,
} from './agents-dialogs';
import { KeyButtons } from './key-buttons';
import { RevealKeyDialog, RevokeKeyDialog } from './key-dialogs';

/** What the Agents page offers on an agent's key. */
const KEY_ACTIONS = ['reveal', 'revoke'] as const;

type Action =
  | { kind: 'create' }
  | { kind: 'edit' | 'new-key'; agent: Agent }
  | { kind: 'deactivate'; agent: Agent; keyCount: number | undefined }
  | { kind: (typeof KEY_ACTIONS)[number]; key: ApiKey }
  | null;

function AgentKeyRow({ apiKey, onAction }: { apiKey: ApiKey; onAction: (action: Action) => void }) {
  return (
    <li className="space-y-1.5 py-2" aria-label={apiKey.name}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <KeyRound aria-hidden className="size-4 text-zinc-500" />
        <h4 className="text-sm font-medium">{apiKey.name}</h4>
        <code className="text-xs text-zinc-600 dark:text-zinc-400">{apiKey.prefix}…</code>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          last used <Time iso={apiKey.lastUsedAt} />
        </span>
        <KeyButtons
          apiKey={apiKey}
          actions={KEY_ACTIONS}
          onAction={(kind) => onAction({ kind, key: apiKey })}
        />
      </div>
      <AccessChips allBoards={apiKey.allBoards} grants={apiKey.grants} />
    </li>
  );
}

function AgentKeys({ agent, onAction }: { agent: Agent; onAction: (action: Action) => void }) {
  const keys = useAgentKeys(agent.id);
  if (keys.isPending) return <Loading label="Loading keys…" />;
  if (keys.isError) return <ErrorState error={keys.error} onRetry={() => keys.refetch()} />;
  if (keys.data.length === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">No keys yet: it cannot act until it has one.</p>
    );
  return (
    <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
      {keys.data.map((apiKey) => (
        <AgentKeyRow key={apiKey.id} apiKey={apiKey} onAction={onAction} />
      ))}
    </ul>
  );
}

function AgentRow({ agent, onAction }: { agent: Agent; onAction: (action: Action) => void }) {
  // A deactivated agent's keys are all revoked: nothing to load.
  const keys = useAgentKeys(agent.id, agent.active);
  return (
    <li className="space-y-3 p-4" aria-label={agent.name}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Bot aria-hidden className="size-5 text-zinc-500" />
        <h2 className="min-w-0 font-medium break-words">{agent.name}</h2>
        {agent.active ? <Badge tone="green">Active</Badge> : <Badge>Deactivated</Badge>}
        {agent.active && (
          <div className="ml-auto flex flex-wrap gap-1">
            <Button
              variant="ghost"
              onClick={() => onAction({ kind: 'edit', agent })}
              aria-label={`Edit ${agent.name}`}
            >
              Edit
            </Button>
            <Button
              variant="ghost"
              onClick={() => onAction({ kind: 'new-key', agent })}
              aria-label={`New key for ${agent.name}`}
            >
              New key
            </Button>
            <Button
              variant="danger-ghost"
              onClick={() => onAction({ kind: 'deactivate', agent, keyCount: keys.data?.length })}
              aria-label={`Deactivate ${agent.name}`}
            >
              Deactivate
            </Button>
          </div>
        )}
      </div>
      {agent.description && (
        <p className="text-sm break-words whitespace-pre-line text-zinc-700 dark:text-zinc-300">
          {agent.description}
        </p>
      )}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Created <Time iso={agent.createdAt} />
      </p>
      {agent.active && (
        <section aria-label={`Keys of ${agent.name}`} className="space-y-1">
          <h3 className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
            API keys
          </h3>
          <AgentKeys agent={agent} onAction={onAction} />
        </section>
      )}
    </li>
  );
}

export default function AgentsPage() {
  const agents = useAgents();
  const [action, setAction] = useState<Action>(null);
  const close = () => setAction(null);
  useEffect(() => {
    document.title = 'Agents · Settings · Laneboard';
  }, []);
  return (
    <>
      <PageHeader
        title="Agents"
        description="Agents are teammates that work through the external API with their own keys. Tasks can be assigned to them."
        actions={
          <Button variant="primary" onClick={() => setAction({ kind: 'create' })}>
            <Plus aria-hidden className="size-4" /> Create agent
          </Button>
        }
      />
      {agents.isPending && <Loading label="Loading agents…" />}
      {agents.isError && <ErrorState error={agents.error} onRetry={() => agents.refetch()} />}
      {agents.data?.length === 0 && (
        <EmptyState title="No agents yet">
          <Bot aria-hidden className="mx-auto my-2 size-5" />
          Create one, then give it a key: it works with it as itself, not as you.
        </EmptyState>
      )}
      {agents.data && agents.data.length > 0 && (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {agents.data.map((agent) => (
            <AgentRow key={agent.id} agent={agent} onAction={setAction} />
          ))}
        </ul>
      )}
      {action?.kind === 'create' && <CreateAgentDialog onClose={close} />}
      {action?.kind === 'edit' && <EditAgentDialog agent={action.agent} onClose={close} />}
      {action?.kind === 'new-key' && <CreateAgentKeyDialog agent={action.agent} onClose={close} />}
      {action?.kind === 'deactivate' && (
        <DeactivateAgentDialog agent={action.agent} keyCount={action.keyCount} onClose={close} />
      )}
      {action?.kind === 'reveal' && <RevealKeyDialog apiKey={action.key} onClose={close} />}
      {action?.kind === 'revoke' && <RevokeKeyDialog apiKey={action.key} onClose={close} />}
    </>
  );
}
