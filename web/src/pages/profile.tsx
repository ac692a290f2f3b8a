import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useChangePassword, useRenameMe, useSession } from '../api/session';
import { Button, FormError, fieldError, PageHeader, TextField } from '../components/ui';
import { ROLE_LABELS } from '../lib/format';

const SECTION = 'max-w-md space-y-4 rounded-lg border border-zinc-200 p-5 dark:border-zinc-800';

export default function ProfilePage() {
  const { data: user } = useSession();
  const [mismatch, setMismatch] = useState<string | null>(null);
  const rename = useRenameMe();
  const changePassword = useChangePassword();
  useEffect(() => {
    document.title = 'Profile · Laneboard';
  }, []);
  if (!user) return null;

  const submitName = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    rename.mutate(String(new FormData(event.currentTarget).get('name')), {
      onSuccess: () => toast.success('Name saved'),
    });
  };
  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const newPassword = String(form.get('newPassword'));
    if (newPassword !== String(form.get('confirmPassword'))) {
      setMismatch('The two new passwords differ.');
      return;
    }
    setMismatch(null);
    changePassword.mutate(
      { currentPassword: String(form.get('currentPassword')), newPassword },
      {
        onSuccess: () => {
          formElement.reset();
          toast.success('Password changed. Your other sessions were signed out.');
        },
      },
    );
  };
  const passwordError = fieldError(changePassword.error, 'newPassword');
  return (
    <>
      <PageHeader title="Profile" description={`${user.email} · ${ROLE_LABELS[user.role]}`} />
      <div className="space-y-6">
        <form onSubmit={submitName} className={SECTION} aria-labelledby="profile-name">
          <h2 id="profile-name" className="font-semibold">
            Your name
          </h2>
          <TextField
            label="Name"
            name="name"
            defaultValue={user.name}
            required
            error={fieldError(rename.error, 'name')}
          />
          <Button type="submit" variant="primary" busy={rename.isPending}>
            Save name
          </Button>
        </form>
        <form onSubmit={submitPassword} className={SECTION} aria-labelledby="profile-password">
          <h2 id="profile-password" className="font-semibold">
            Your password
          </h2>
          <TextField
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
          />
          <TextField
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            hint="At least 10 characters. Changing it signs you out everywhere else."
            error={passwordError}
          />
          <TextField
            label="Repeat the new password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            error={mismatch}
          />
          {!passwordError && <FormError error={changePassword.error} />}
          <Button type="submit" variant="primary" busy={changePassword.isPending}>
            Change password
          </Button>
        </form>
      </div>
    </>
  );
}
