import { type FormEvent, useState } from 'react';
import type { Access } from '../../api/keys';
import { AccessPicker } from '../../components/access-picker';
import { Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import { Button, FormError, fieldError, TextField } from '../../components/ui';

const ALL_BOARDS: Access = { allBoards: true, grants: [] };

/** The access picker with what is wrong with the access chosen, once the form was submitted. */
export function AccessFields({
  access,
  onChange,
  problem,
}: {
  access: Access;
  onChange: (access: Access) => void;
  problem: string | null;
}) {
  return (
    <>
      <AccessPicker value={access} onChange={onChange} />
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
    </>
  );
}

export function accessProblem(access: Access): string | null {
  return !access.allBoards && access.grants.length === 0 ? 'Choose at least one board, or All boards.' : null;
}

/** A key's value, shown to copy, and Done. */
export function ShownKey({ value, onDone }: { value: string; onDone: () => void }) {
  return (
    <>
      <SecretValue label="API key" value={value} />
      <div className="mt-5 flex justify-end">
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </>
  );
}

/** What NewKeyDialog needs of the create mutation: a person's key or an agent's. */
interface KeyCreation {
  mutate(body: { name: string } & Access): void;
  reset(): void;
  data: { key: string } | undefined;
  error: unknown;
  isPending: boolean;
}

export interface NewKeyText {
  title: string;
  nameLabel: string;
  placeholder: string;
  /** The title and description once the key is made, shown once. */
  copyTitle: string;
  copyDescription: string;
}

/** A new key's name and access, then its value shown once: for a person's keys and an agent's. */
export function NewKeyDialog({
  open,
  onOpenChange,
  create,
  text,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  create: KeyCreation;
  text: NewKeyText;
}) {
  const [access, setAccess] = useState<Access>(ALL_BOARDS);
  const [problem, setProblem] = useState<string | null>(null);
  // The dialog may stay mounted while closed (the API Keys page): closing starts it afresh.
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      create.reset();
      setAccess(ALL_BOARDS);
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
      <Modal open={open} onOpenChange={close} title={text.copyTitle} description={text.copyDescription}>
        <ShownKey value={create.data.key} onDone={() => close(false)} />
      </Modal>
    );
  }
  return (
    <Modal open={open} onOpenChange={close} title={text.title}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label={text.nameLabel}
          name="name"
          required
          placeholder={text.placeholder}
          error={fieldError(create.error, 'name')}
        />
        <AccessFields access={access} onChange={setAccess} problem={problem} />
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
