import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAcceptInvite, useInvite } from '../api/people';
import { ssoStartUrl, useSignedIn, useSignInOptions } from '../api/session';
import { AccountForm } from '../components/account-form';
import { AuthCard } from '../components/auth-card';
import { ErrorState, Loading } from '../components/ui';
import { formatDateTime, ROLE_LABELS } from '../lib/format';

export default function InvitePage() {
  const { token = '' } = useParams();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const invite = useInvite(token);
  const accept = useAcceptInvite(token);
  const options = useSignInOptions();
  useEffect(() => {
    document.title = 'Join Laneboard';
  }, []);
  if (invite.isPending || options.isPending) return <Loading />;
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
  return (
    <AuthCard
      title="Join Laneboard"
      description={`You are invited as ${ROLE_LABELS[invite.data.role].toLowerCase()}. The link works once, until ${formatDateTime(invite.data.expiresAt)}.`}
    >
      {options.data?.sso && (
        <a
          href={ssoStartUrl({ invite: token })}
          className="mb-4 inline-flex min-h-9 w-full items-center justify-center rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
        >
          Join with SSO
        </a>
      )}
      {/* With password sign-in off, a password account could not sign in afterwards: SSO only. */}
      {options.data?.passwordSignIn !== false && (
        <AccountForm
          error={accept.error}
          busy={accept.isPending}
          submitLabel="Create account"
          onSubmit={(account) =>
            accept.mutate(account, {
              onSuccess: (user) => {
                signedIn(user);
                navigate('/', { replace: true });
              },
            })
          }
        />
      )}
    </AuthCard>
  );
}
