import { useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useSession, useSetUp, useSetupNeeded, useSignedIn } from '../api/session';
import { AccountForm } from '../components/account-form';
import { AuthCard } from '../components/auth-card';
import { Loading } from '../components/ui';

export default function SetupPage() {
  const setup = useSetupNeeded(true);
  const session = useSession();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const create = useSetUp();
  useEffect(() => {
    document.title = 'Set up Laneboard';
  }, []);
  if (setup.isPending) return <Loading />;
  if (setup.data && !setup.data.needed && !create.isSuccess) {
    return <Navigate to={session.data ? '/' : '/login'} replace />;
  }
  return (
    <AuthCard
      title="Set up Laneboard"
      description="Create the owner account. You can invite the rest of your team afterwards."
    >
      <AccountForm
        error={create.error}
        busy={create.isPending}
        submitLabel="Create owner account"
        onSubmit={(account) =>
          create.mutate(account, {
            onSuccess: (user) => {
              signedIn(user);
              navigate('/settings/keys', { replace: true });
            },
          })
        }
      />
    </AuthCard>
  );
}
