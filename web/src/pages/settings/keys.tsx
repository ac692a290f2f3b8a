import { KeyRound, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type ApiKey, useKeys } from '../../api/keys';
import { isAdmin, useSession } from '../../api/session';
import { AccessChips } from '../../components/access-picker';
import { Button, EmptyState, ErrorState, Loading, PageHeader, Time } from '../../components/ui';
import { type KeyAction, KeyButtons } from './key-buttons';
import { CreateKeyDialog, KeyAccessDialog, RevealKeyDialog, RevokeKeyDialog } from './key-dialogs';

type Action = { kind: KeyAction; key: ApiKey } | null;

function KeyRow({ apiKey, onAction }: { apiKey: ApiKey; onAction: (action: Action) => void }) {
  const lastReveal = apiKey.reveals[0];
  return (
    <li className="space-y-2 p-4" aria-label={apiKey.name}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 className="font-medium">{apiKey.name}</h2>
        <code className="text-xs text-zinc-600 dark:text-zinc-400">{apiKey.prefix}…</code>
        <KeyButtons
          apiKey={apiKey}
          actions={['reveal', 'access', 'revoke']}
          onAction={(kind) => onAction({ kind, key: apiKey })}
        />
      </div>
      <AccessChips allBoards={apiKey.allBoards} grants={apiKey.grants} />
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-zinc-600 sm:grid-cols-4 dark:text-zinc-400">
        <div>
          <dt className="inline">Owner: </dt>
          <dd className="inline">
            {apiKey.agent
              ? `${apiKey.agent.name} (agent)`
              : (apiKey.owner?.name ?? 'nobody (made with the CLI)')}
          </dd>
        </div>
        <div>
          <dt className="inline">Created </dt>
          <dd className="inline">
            <Time iso={apiKey.createdAt} />
          </dd>
        </div>
        <div>
          <dt className="inline">Last used </dt>
          <dd className="inline">
            <Time iso={apiKey.lastUsedAt} />
          </dd>
        </div>
        <div>
          <dt className="inline">Webhooks: </dt>
          <dd className="inline">{apiKey.webhookCount}</dd>
        </div>
      </dl>
      {lastReveal && (
        <details className="text-xs text-zinc-600 dark:text-zinc-400">
          <summary className="cursor-pointer">
            Revealed {apiKey.reveals.length} {apiKey.reveals.length === 1 ? 'time' : 'times'}, last by{' '}
            {lastReveal.user.name} <Time iso={lastReveal.at} />
          </summary>
          <ul className="mt-1 ml-4 list-disc">
            {apiKey.reveals.map((reveal) => (
              <li key={`${reveal.at}-${reveal.user.id}`}>
                {reveal.user.name}, <Time iso={reveal.at} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

export default function KeysPage() {
  const { data: user } = useSession();
  const keys = useKeys();
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<Action>(null);
  useEffect(() => {
    document.title = 'API Keys · Settings · Laneboard';
  }, []);
  return (
    <>
      <PageHeader
        title="API Keys"
        description={
          isAdmin(user)
            ? 'Keys let scripts, integrations and agents use the external API. You see every key.'
            : 'Keys let your scripts, integrations and agents use the external API as you.'
        }
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus aria-hidden className="size-4" /> Create key
          </Button>
        }
      />
      {keys.isPending && <Loading label="Loading keys…" />}
      {keys.isError && <ErrorState error={keys.error} onRetry={() => keys.refetch()} />}
      {keys.data?.length === 0 && (
        <EmptyState title="No API keys yet">
          <KeyRound aria-hidden className="mx-auto my-2 size-5" />
          Create one to connect a script or an agent. Its base URL is{' '}
          <code>{window.location.origin}/api/ext/v1</code>.
        </EmptyState>
      )}
      {keys.data && keys.data.length > 0 && (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {keys.data.map((apiKey) => (
            <KeyRow key={apiKey.id} apiKey={apiKey} onAction={setAction} />
          ))}
        </ul>
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
      {action?.kind === 'reveal' && <RevealKeyDialog apiKey={action.key} onClose={() => setAction(null)} />}
      {action?.kind === 'access' && <KeyAccessDialog apiKey={action.key} onClose={() => setAction(null)} />}
      {action?.kind === 'revoke' && <RevokeKeyDialog apiKey={action.key} onClose={() => setAction(null)} />}
    </>
  );
}
