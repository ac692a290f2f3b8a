import { type FormEvent, useId } from 'react';
import { toast } from 'sonner';
import {
  type Agent,
  useCreateAgent,
  useCreateAgentKey,
  useDeactivateAgent,
  useUpdateAgent,
} from '../../api/agents';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { Button, FormError, fieldError, TextField } from '../../components/ui';
import { NewKeyDialog } from './new-key-dialog';

/** The contract's limit on an agent's name (the server checks it too, after trimming). */
const NAME_MAX = 200;
const DESCRIPTION_MAX = 2_000;

function DescriptionField({ defaultValue, error }: { defaultValue?: string; error: string | null }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        Description <span className="font-normal text-zinc-600 dark:text-zinc-400">(optional)</span>
      </label>
      <textarea
        id={id}
        name="description"
        rows={3}
        maxLength={DESCRIPTION_MAX}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        placeholder="What it does, who runs it…"
        className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-500 aria-invalid:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function readAgentForm(form: HTMLFormElement) {
  const data = new FormData(form);
  return { name: String(data.get('name') ?? ''), description: String(data.get('description') ?? '') };
}

/** The name and description form, shared by Create and Edit. */
function AgentForm({
  agent,
  error,
  busy,
  onSubmit,
  onClose,
}: {
  agent?: Agent;
  error: unknown;
  busy: boolean;
  onSubmit: (body: { name: string; description: string }) => void;
  onClose: () => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(readAgentForm(event.currentTarget));
  };
  const nameError = fieldError(error, 'name');
  const descriptionError = fieldError(error, 'description');
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <TextField
        label="Name"
        name="name"
        required
        maxLength={NAME_MAX}
        defaultValue={agent?.name}
        placeholder="Claude, Release bot…"
        error={nameError}
      />
      <DescriptionField defaultValue={agent?.description} error={descriptionError} />
      {!nameError && !descriptionError && <FormError error={error} />}
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          {agent ? 'Save agent' : 'Create agent'}
        </Button>
      </div>
    </form>
  );
}

export function CreateAgentDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateAgent();
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Create agent"
      description="An agent is a teammate that works through its own API keys: tasks can be assigned to it."
    >
      <AgentForm
        error={create.error}
        busy={create.isPending}
        onClose={onClose}
        onSubmit={(body) =>
          create.mutate(body, {
            onSuccess: (saved) => {
              toast.success(`Agent “${saved.name}” created`);
              onClose();
            },
          })
        }
      />
    </Modal>
  );
}

export function EditAgentDialog({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const update = useUpdateAgent(agent);
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Edit “${agent.name}”`}
      description="Its keys carry the new name from their next request."
    >
      <AgentForm
        agent={agent}
        error={update.error}
        busy={update.isPending}
        onClose={onClose}
        onSubmit={(body) =>
          update.mutate(body, {
            onSuccess: (saved) => {
              toast.success(`“${saved.name}” saved`);
              onClose();
            },
          })
        }
      />
    </Modal>
  );
}

export function CreateAgentKeyDialog({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const create = useCreateAgentKey(agent);
  return (
    <NewKeyDialog
      open
      onOpenChange={(open) => !open && onClose()}
      create={create}
      text={{
        title: `New key for “${agent.name}”`,
        nameLabel: 'Key name',
        placeholder: 'Laptop, CI runner…',
        copyTitle: `Copy ${agent.name}’s new API key`,
        copyDescription:
          'It acts as the agent. Keep it somewhere safe; you can reveal it again with your password.',
      }}
    />
  );
}

export function DeactivateAgentDialog({
  agent,
  keyCount,
  onClose,
}: {
  agent: Agent;
  keyCount: number | undefined;
  onClose: () => void;
}) {
  const deactivate = useDeactivateAgent(agent);
  const keys =
    keyCount === undefined
      ? 'Its API keys are revoked'
      : keyCount === 0
        ? 'It has no API keys'
        : `Its ${keyCount} API ${keyCount === 1 ? 'key is' : 'keys are'} revoked`;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Deactivate “${agent.name}”?`}
      description={
        <>
          {keys} at once, with the webhooks that use them, and it can no longer be assigned tasks. This cannot
          be undone.
        </>
      }
      confirmLabel="Deactivate agent"
      busy={deactivate.isPending}
      onConfirm={() =>
        deactivate.mutate(undefined, {
          onSuccess: (result) => {
            const revoked = result.keysRevoked;
            toast.success(
              `“${agent.name}” deactivated; ${revoked} ${revoked === 1 ? 'key' : 'keys'} revoked`,
            );
            onClose();
          },
        })
      }
      error={deactivate.error ? <FormError error={deactivate.error} /> : null}
    />
  );
}
