import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import {
  type Access,
  type ApiKey,
  useCreateKey,
  useRevealKey,
  useRevokeKey,
  useSaveKeyAccess,
} from '../../api/keys';
import { AccessPicker } from '../../components/access-picker';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import { Button, FormError, fieldError, TextField } from '../../components/ui';

function accessProblem(access: Access): string | null {
  return !access.allBoards && access.grants.length === 0 ? 'Choose at least one board, or All boards.' : null;
}

export function CreateKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [access, setAccess] = useState<Access>({ allBoards: true, grants: [] });
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateKey();
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      create.reset();
      setAccess({ allBoards: true, grants: [] });
      setProblem(null);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const issue = accessProblem(access);
    setProblem(issue);
    if (issue) return;
    create.mutate({ name: String(new FormData(event.currentTarget).get('name')), ...access });
  };
  if (create.data) {
    return (
      <Modal
        open={open}
        onOpenChange={close}
        title="Copy your new API key"
        description="Keep it somewhere safe. You can reveal it again from the key list, with your password."
      >
        <SecretValue label="API key" value={create.data.key} />
        <div className="mt-5 flex justify-end">
          <Button variant="primary" onClick={() => close(false)}>
            Done
          </Button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal open={open} onOpenChange={close} title="Create API key">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Name"
          name="name"
          required
          placeholder="CI, Claude on my laptop…"
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
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending}>
            Create key
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function RevealKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const reveal = useRevealKey(apiKey);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reveal.mutate(String(new FormData(event.currentTarget).get('password')));
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Reveal “${apiKey.name}”`}
      description="Confirm your password. Every reveal is recorded and shown on the key. Wrong passwords count with failed sign-ins: too many lock your account out for a while."
    >
      {reveal.data ? (
        <>
          <SecretValue label="API key" value={reveal.data.key} />
          <div className="mt-5 flex justify-end">
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <TextField
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          <FormError error={reveal.error} />
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" busy={reveal.isPending}>
              Reveal key
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

export function KeyAccessDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const [access, setAccess] = useState<Access>({
    allBoards: apiKey.allBoards,
    grants: apiKey.grants.map(({ boardId, permission }) => ({ boardId, permission })),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveKeyAccess(apiKey);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const issue = accessProblem(access);
    setProblem(issue);
    if (!issue)
      save.mutate(access, {
        onSuccess: () => {
          toast.success(`Access of “${apiKey.name}” saved`);
          onClose();
        },
      });
  };
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Access of “${apiKey.name}”`}>
      <form onSubmit={submit} className="space-y-4">
        <AccessPicker value={access} onChange={setAccess} />
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        <FormError error={save.error} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save access
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeKey(apiKey);
  const count = apiKey.webhookCount;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Revoke “${apiKey.name}”?`}
      description={
        <>
          The key stops working at once, for every script and agent that uses it.{' '}
          {count === 0
            ? 'No webhooks use it.'
            : `${count} ${count === 1 ? 'webhook goes' : 'webhooks go'} with it, with their delivery history.`}
        </>
      }
      confirmLabel="Revoke key"
      busy={revoke.isPending}
      onConfirm={() =>
        revoke.mutate(undefined, {
          onSuccess: () => {
            toast.success(`“${apiKey.name}” revoked`);
            onClose();
          },
        })
      }
      error={revoke.error ? <FormError error={revoke.error} /> : null}
    />
  );
}
