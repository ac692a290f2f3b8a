import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import {
  type Agent,
  useCreateAgent,
  useCreateAgentKey,
  useDeactivateAgent,
  useUpdateAgent,
} from '../../api/agents';
import type { Access } from '../../api/keys';
import { AccessPicker } from '../../components/access-picker';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import { Button, FormError, fieldError, TextField } from '../../components/ui';

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
  const [access, setAccess] = useState<Access>({ allBoards: true, grants: [] });
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateAgentKey(agent);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const issue =
      !access.allBoards && access.grants.length === 0 ? 'Choose at least one board, or All boards.' : null;
    setProblem(issue);
    if (issue) return;
    create.mutate({ name: String(new FormData(event.currentTarget).get('name')), ...access });
  };
  if (create.data) {
    return (
      <Modal
        open
        onOpenChange={(open) => !open && onClose()}
        title={`Copy ${agent.name}’s new API key`}
        description="It acts as the agent. Keep it somewhere safe; you can reveal it again with your password."
      >
        <SecretValue label="API key" value={create.data.key} />
        <div className="mt-5 flex justify-end">
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`New key for “${agent.name}”`}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Key name"
          name="name"
          required
          placeholder="Laptop, CI runner…"
          error={fieldError(create.error, 'name')}
        />
        <AccessPicker value={access} onChange={setAccess} />
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        {!fieldError(create.error, 'name') && <FormError error={create.error} />}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending}>
            Create key
          </Button>
        </div>
      </form>
    </Modal>
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
