import { type FormEvent, useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession, useSetupNeeded, useSignedIn, useSignIn } from '../api/session';
import { AuthCard } from '../components/auth-card';
import { Button, FormError, Loading, TextField } from '../components/ui';

/** Only a path of this site: `next` comes from the address bar and must not send anyone elsewhere. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export default function LoginPage() {
  const session = useSession();
  const setup = useSetupNeeded(session.data === null);
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const signIn = useSignIn();
  useEffect(() => {
    document.title = 'Sign in · Laneboard';
  }, []);
  if (session.isPending) return <Loading />;
  if (session.data && !signIn.isSuccess) return <Navigate to={next} replace />;
  if (setup.data?.needed) return <Navigate to="/setup" replace />;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    signIn.mutate(
      { email: String(form.get('email')), password: String(form.get('password')) },
      {
        onSuccess: (user) => {
          signedIn(user);
          navigate(next, { replace: true });
        },
      },
    );
  };
  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} className="space-y-4">
        <TextField label="Email" name="email" type="email" autoComplete="username" required />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <FormError error={signIn.error} />
        <Button type="submit" variant="primary" busy={signIn.isPending} className="w-full">
          Sign in
        </Button>
      </form>
      <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">
        Forgot your password? An owner or admin can reset it with <code>laneboard users reset-password</code>.
      </p>
    </AuthCard>
  );
}
