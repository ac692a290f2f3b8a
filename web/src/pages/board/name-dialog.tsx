import { type FormEvent, useState } from 'react';
import { Modal } from '../../components/dialog';
import { Button, FormError, fieldError, TextField } from '../../components/ui';

/** Asks for a name (rename a board or a lane) and shows the server's message when it is refused. */
export function NameDialog({
  title,
  initial,
  onSave,
  onClose,
}: {
  title: string;
  initial: string;
  onSave: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSave(String(new FormData(event.currentTarget).get('name')));
      onClose();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={title}>
      <form onSubmit={submit} className="space-y-4">
        <TextField
          label="Name"
          name="name"
          defaultValue={initial}
          required
          error={fieldError(error, 'name')}
        />
        {!fieldError(error, 'name') && <FormError error={error} />}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  );
}
