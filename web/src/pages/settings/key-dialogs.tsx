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
import { ConfirmDialog, Modal } from '../../components/dialog';
import { Button, FormError, TextField } from '../../components/ui';
import { AccessFields, accessProblem, NewKeyDialog, ShownKey } from './new-key-dialog';

export function CreateKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateKey();
  return (
    <NewKeyDialog
      open={open}
      onOpenChange={onOpenChange}
      create={create}
      text={{
        title: 'Create API key',
        nameLabel: 'Name',
        placeholder: 'CI, Claude on my laptop…',
        copyTitle: 'Copy your new API key',
        copyDescription:
          'Keep it somewhere safe. You can reveal it again from the key list, with your password.',
      }}
    />
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
        <ShownKey value={reveal.data.key} onDone={onClose} />
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
        <AccessFields access={access} onChange={setAccess} problem={problem} />
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
