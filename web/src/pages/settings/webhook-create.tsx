import { type FormEvent, useState } from 'react';
import { useKeys } from '../../api/keys';
import { useCreateWebhook, useEventTypes } from '../../api/webhooks';
import { AllOrChosen } from '../../components/all-or-chosen';
import { Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import { Button, FormError, fieldError, SelectField, TextField } from '../../components/ui';

/** GitHub's picker: everything (the only choice that also gets asset and reaction events), or chosen types. */
function EventPicker({
  all,
  chosen,
  onChange,
  error,
}: {
  all: boolean;
  chosen: string[];
  onChange: (all: boolean, chosen: string[]) => void;
  error: string | null;
}) {
  const types = useEventTypes();
  const toggle = (type: string, on: boolean) =>
    onChange(false, on ? [...chosen, type] : chosen.filter((t) => t !== type));
  return (
    <AllOrChosen
      legend="Events"
      all={all}
      onAllChange={(everything) => onChange(everything, chosen)}
      allLabel="All events"
      allHint="including asset and reaction events, and types added later"
      chosenLabel="Chosen events"
      after={
        error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )
      }
    >
      <div className="ml-6 grid grid-cols-1 gap-1 sm:grid-cols-2">
        {types.data?.map((type) => (
          <label key={type} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={chosen.includes(type)}
              onChange={(e) => toggle(type, e.target.checked)}
            />
            <code>{type}</code>
          </label>
        ))}
        {types.isError && <FormError error={types.error} />}
      </div>
    </AllOrChosen>
  );
}

export function CreateWebhookDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const keys = useKeys(open);
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [eventsProblem, setEventsProblem] = useState<string | null>(null);
  const create = useCreateWebhook();
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      create.reset();
      setAll(true);
      setChosen([]);
      setEventsProblem(null);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (!all && chosen.length === 0) {
      setEventsProblem('Choose at least one event, or All events.');
      return;
    }
    setEventsProblem(null);
    create.mutate({
      url: String(form.get('url')).trim(),
      apiKeyId: String(form.get('apiKeyId')),
      events: all ? ['*'] : chosen,
    });
  };
  if (create.data) {
    return (
      <Modal
        open={open}
        onOpenChange={close}
        title="Copy the signing secret"
        description="It is shown only now. Your receiver verifies each delivery's signature with it; rotate it from the webhook if it leaks."
      >
        <SecretValue label="Signing secret" value={create.data.secret} />
        <div className="mt-5 flex justify-end">
          <Button variant="primary" onClick={() => close(false)}>
            Done
          </Button>
        </div>
      </Modal>
    );
  }
  const noKeys = keys.data?.length === 0;
  const knownField = ['url', 'events', 'apiKeyId'].some((f) => fieldError(create.error, f));
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Create webhook"
      description="Laneboard POSTs each event to your URL, signed, retrying failures. Changes made in this web UI send no events."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Payload URL"
          name="url"
          type="url"
          required
          placeholder="https://example.com/laneboard-hook"
          error={fieldError(create.error, 'url')}
        />
        {noKeys ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            A webhook hears about the boards its API key can see. Create an API key first.
          </p>
        ) : (
          <SelectField label="API key" name="apiKeyId" required>
            {keys.data?.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.prefix}…){key.owner ? ` · ${key.owner.name}` : ''}
              </option>
            ))}
          </SelectField>
        )}
        {fieldError(create.error, 'apiKeyId') && <FormError error={create.error} />}
        <EventPicker
          all={all}
          chosen={chosen}
          onChange={(nextAll, nextChosen) => {
            setAll(nextAll);
            setChosen(nextChosen);
          }}
          error={eventsProblem ?? fieldError(create.error, 'events')}
        />
        {!knownField && <FormError error={create.error} />}
        <div className="flex justify-end gap-2">
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={noKeys}>
            Create webhook
          </Button>
        </div>
      </form>
    </Modal>
  );
}
