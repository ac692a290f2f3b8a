import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAcceptInvite, useInvite } from '../api/people';
import { useSignedIn } from '../api/session';
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
  return (
    <AuthCard
      title="Join Laneboard"
      description={`You are invited as ${ROLE_LABELS[invite.data.role].toLowerCase()}. The link works once, until ${formatDateTime(invite.data.expiresAt)}.`}
    >
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
    </AuthCard>
  );
}
