import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../api/client';
import { useSession, useSetupNeeded, useSignedIn } from '../api/session';
import type { User } from '../api/types';
import { AuthCard } from '../components/auth-card';
import { Button, FormError, fieldError, Loading, TextField } from '../components/ui';

export default function SetupPage() {
  const setup = useSetupNeeded(true);
  const session = useSession();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (body: { email: string; name: string; password: string }) => api.post<User>('/setup', body),
    onSuccess: (user) => {
      signedIn(user);
      navigate('/settings/keys', { replace: true });
    },
  });
  useEffect(() => {
    document.title = 'Set up Laneboard';
  }, []);
  if (setup.isPending) return <Loading />;
  if (setup.data && !setup.data.needed && !create.isSuccess) {
    return <Navigate to={session.data ? '/' : '/login'} replace />;
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      email: String(form.get('email')),
      name: String(form.get('name')),
      password: String(form.get('password')),
    });
  };
  const generic = create.error && !['email', 'name', 'password'].some((f) => fieldError(create.error, f));
  return (
    <AuthCard
      title="Set up Laneboard"
      description="Create the owner account. You can invite the rest of your team afterwards."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          error={fieldError(create.error, 'name')}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={fieldError(create.error, 'email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters, not a common password."
          error={fieldError(create.error, 'password')}
        />
        {generic && <FormError error={create.error} />}
        <Button type="submit" variant="primary" busy={create.isPending} className="w-full">
          Create owner account
        </Button>
      </form>
    </AuthCard>
  );
}
