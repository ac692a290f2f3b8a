import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { useSignedIn } from '../api/session';
import type { Role, User } from '../api/types';
import { AuthCard } from '../components/auth-card';
import { Button, ErrorState, FormError, fieldError, Loading, TextField } from '../components/ui';
import { formatDateTime, ROLE_LABELS } from '../lib/format';

export default function InvitePage() {
  const { token = '' } = useParams();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const invite = useQuery({
    queryKey: ['invite', token],
    queryFn: () => api.get<{ role: Role; expiresAt: string }>(`/invites/${encodeURIComponent(token)}`),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: (body: { email: string; name: string; password: string }) =>
      api.post<User>(`/invites/${encodeURIComponent(token)}/accept`, body),
    onSuccess: (user) => {
      signedIn(user);
      navigate('/', { replace: true });
    },
  });
  useEffect(() => {
    document.title = 'Join Laneboard';
  }, []);
  if (invite.isPending) return <Loading />;
  if (invite.isError) {
    return (
      <AuthCard title="Join Laneboard">
        <ErrorState error={invite.error} />
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
          Ask whoever invited you for a new link.
        </p>
      </AuthCard>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    accept.mutate({
      email: String(form.get('email')),
      name: String(form.get('name')),
      password: String(form.get('password')),
    });
  };
  const generic = accept.error && !['email', 'name', 'password'].some((f) => fieldError(accept.error, f));
  return (
    <AuthCard
      title="Join Laneboard"
      description={`You are invited as ${ROLE_LABELS[invite.data.role].toLowerCase()}. The link works once, until ${formatDateTime(invite.data.expiresAt)}.`}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          error={fieldError(accept.error, 'name')}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={fieldError(accept.error, 'email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 10 characters, not a common password."
          error={fieldError(accept.error, 'password')}
        />
        {generic && <FormError error={accept.error} />}
        <Button type="submit" variant="primary" busy={accept.isPending} className="w-full">
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
