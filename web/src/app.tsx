import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import { isAdmin, useSession, useSetupNeeded } from './api/session';
import { AppShell } from './components/app-shell';
import { ErrorState, Loading, PageHeader } from './components/ui';

// Every page is its own chunk: the first page loads only what it shows.
const SetupPage = lazy(() => import('./pages/setup'));
const LoginPage = lazy(() => import('./pages/login'));
const InvitePage = lazy(() => import('./pages/invite'));
const HomePage = lazy(() => import('./pages/home'));
const ProfilePage = lazy(() => import('./pages/profile'));
const BoardPage = lazy(() => import('./pages/board/index'));
const TaskPage = lazy(() => import('./pages/task/index'));
const BoardHistoryPage = lazy(() => import('./pages/history/board-history'));
const SettingsLayout = lazy(() => import('./pages/settings/layout'));
const KeysPage = lazy(() => import('./pages/settings/keys'));
const WebhooksPage = lazy(() => import('./pages/settings/webhooks'));
const WebhookDetailPage = lazy(() => import('./pages/settings/webhook-detail'));
const PeoplePage = lazy(() => import('./pages/settings/people'));
const AgentsPage = lazy(() => import('./pages/settings/agents'));
const InboxPage = lazy(() => import('./pages/inbox'));
const SearchPage = lazy(() => import('./pages/search/index'));
const NotFoundPage = lazy(() => import('./pages/not-found'));

/** Pages for a signed-in person; otherwise setup (nobody exists yet) or sign-in, coming back here after. */
function RequireSession() {
  const session = useSession();
  const location = useLocation();
  const signedOut = session.isSuccess && session.data === null;
  const setup = useSetupNeeded(signedOut);
  if (session.isPending || (signedOut && setup.isPending)) return <Loading />;
  if (session.isError) return <ErrorState error={session.error} onRetry={() => session.refetch()} />;
  if (signedOut) {
    if (setup.data?.needed) return <Navigate to="/setup" replace />;
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <AppShell />;
}

function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!isAdmin(session.data)) {
    // A page of its own (with its heading), not a bare alert, so that the settings page reads as one.
    return (
      <>
        <PageHeader title="Owners and admins only" />
        <ErrorState
          error={new Error('Only owners and admins can open this page. Ask one of them for access.')}
        />
      </>
    );
  }
  return children;
}

export function App() {
  return (
    <>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/setup" element={<SetupPage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/invite/:token" element={<InvitePage />} />
          <Route element={<RequireSession />}>
            <Route index element={<HomePage />} />
            <Route path="profile" element={<ProfilePage />} />
            <Route path="search" element={<SearchPage />} />
            <Route path="inbox" element={<InboxPage />} />
            <Route path="boards/:boardId" element={<BoardPage />} />
            <Route path="boards/:boardId/tasks/:taskId" element={<TaskPage />} />
            <Route path="boards/:boardId/history" element={<BoardHistoryPage />} />
            <Route path="settings" element={<SettingsLayout />}>
              <Route index element={<Navigate to="keys" replace />} />
              <Route path="keys" element={<KeysPage />} />
              <Route
                path="webhooks"
                element={
                  <RequireAdmin>
                    <WebhooksPage />
                  </RequireAdmin>
                }
              />
              <Route
                path="webhooks/:webhookId"
                element={
                  <RequireAdmin>
                    <WebhookDetailPage />
                  </RequireAdmin>
                }
              />
              <Route
                path="people"
                element={
                  <RequireAdmin>
                    <PeoplePage />
                  </RequireAdmin>
                }
              />
              <Route
                path="agents"
                element={
                  <RequireAdmin>
                    <AgentsPage />
                  </RequireAdmin>
                }
              />
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
      <Toaster theme="system" position="bottom-right" closeButton />
    </>
  );
}
