import { KeyRound } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import {
  ssoStartUrl,
  useSession,
  useSetupNeeded,
  useSignedIn,
  useSignIn,
  useSignInOptions,
} from '../api/session';
import { AuthCard } from '../components/auth-card';
import { Button, FormError, Loading, TextField } from '../components/ui';

/** Only a path of this site: `next` comes from the address bar and must not send anyone elsewhere. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/**
 * Why the server sent a single sign-on back here (`?sso_error=`, see src/http/ui/oidc-routes.ts). Only
 * these codes are shown: text in the address bar is never displayed as it is.
 */
const SSO_ERRORS: Record<string, string> = {
  state: 'That sign-in attempt expired or was not started from this page. Sign in with SSO again.',
  code_rejected:
    'The identity provider refused that sign-in: it was already used or has expired. Sign in with SSO again.',
  provider_refused: 'The identity provider did not sign you in.',
  provider_unavailable: 'The identity provider could not be reached. Try again in a moment.',
  email_missing:
    'The identity provider did not share your email address, so Laneboard cannot tell who you are.',
  email_unverified:
    'Your email address is not verified at the identity provider. Verify it there, then sign in again.',
  domain_not_allowed:
    'Your email address is not in a domain that may join this Laneboard. Ask an owner or admin for an invite.',
  deactivated: 'Your account has been deactivated. Ask an owner or admin.',
  linked_elsewhere:
    'Your Laneboard account already signs in with another account of this identity provider. Use that one.',
  invite_invalid: 'This invite link is invalid, used or expired. Ask whoever invited you for a new link.',
};
const SSO_FAILED = 'Single sign-on failed. Try again.';

export default function LoginPage() {
  const session = useSession();
  const setup = useSetupNeeded(session.data === null);
  const options = useSignInOptions();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const ssoError = params.get('sso_error');
  const signIn = useSignIn();
  const [ownerSignIn, setOwnerSignIn] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · Laneboard';
  }, []);
  if (session.isPending || options.isPending) return <Loading />;
  if (session.data && !signIn.isSuccess) return <Navigate to={next} replace />;
  if (setup.data?.needed) return <Navigate to="/setup" replace />;
  const sso = options.data?.sso === true;
  // Without single sign-on the password form is the only way in, whatever the setting says.
  const passwordForEveryone = !sso || options.data?.passwordSignIn !== false;
  const showPasswordForm = passwordForEveryone || ownerSignIn;
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
    <AuthCard title={ownerSignIn ? 'Owner sign-in' : 'Sign in'}>
      {ssoError !== null && (
        <p
          role="alert"
          className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {SSO_ERRORS[ssoError] ?? SSO_FAILED}
        </p>
      )}
      {sso && !ownerSignIn && (
        <a
          href={ssoStartUrl({ next })}
          className="inline-flex min-h-9 w-full items-center justify-center gap-1.5 rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
        >
          <KeyRound aria-hidden className="size-4" />
          Sign in with SSO
        </a>
      )}
      {sso && passwordForEveryone && (
        <p className="my-4 flex items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400">
          <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
          or with a password
          <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        </p>
      )}
      {showPasswordForm && (
        <form onSubmit={submit} className="space-y-4">
          {ownerSignIn && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              Password sign-in is kept for owners only, so that a broken identity provider cannot lock this
              Laneboard out.
            </p>
          )}
          <TextField label="Email" name="email" type="email" autoComplete="username" required />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          <FormError error={signIn.error} />
          <Button
            type="submit"
            variant={sso ? 'secondary' : 'primary'}
            busy={signIn.isPending}
            className="w-full"
          >
            Sign in
          </Button>
        </form>
      )}
      {showPasswordForm ? (
        <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">
          Forgot your password? An owner or admin can reset it with{' '}
          <code>laneboard users reset-password</code>.
        </p>
      ) : null}
      {sso && !passwordForEveryone && (
        <p className="mt-4 text-center text-xs">
          <button
            type="button"
            className="text-zinc-600 underline hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            onClick={() => setOwnerSignIn((open) => !open)}
          >
            {ownerSignIn ? 'Back to single sign-on' : 'Owner sign-in'}
          </button>
        </p>
      )}
    </AuthCard>
  );
}
