import type { FormEvent } from 'react';
import type { NewAccount } from '../api/session';
import { Button, FormError, fieldError, TextField } from './ui';

const FIELDS = ['email', 'name', 'password'] as const;

/**
 * Name, email and a new password: the form of the first owner's set-up and of an accepted invite.
 * Errors the server gives for a field show under it; any other error shows above the button.
 */
export function AccountForm(props: {
  error: unknown;
  busy: boolean;
  submitLabel: string;
  onSubmit: (account: NewAccount) => void;
}) {
  const { error } = props;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    props.onSubmit({
      email: String(form.get('email')),
      name: String(form.get('name')),
      password: String(form.get('password')),
    });
  };
  const generic = Boolean(error) && !FIELDS.some((field) => fieldError(error, field));
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <TextField label="Name" name="name" autoComplete="name" required error={fieldError(error, 'name')} />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={fieldError(error, 'email')}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        hint="At least 10 characters, not a common password."
        error={fieldError(error, 'password')}
      />
      {generic && <FormError error={error} />}
      <Button type="submit" variant="primary" busy={props.busy} className="w-full">
        {props.submitLabel}
      </Button>
    </form>
  );
}
