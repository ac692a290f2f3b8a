import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { prefetchBoardOf } from './api/boards';
import { ApiError } from './api/client';
import { sessionKeys } from './api/session';
import { App } from './app';
import './styles.css';

/** A session that ended (expired, signed out elsewhere, password changed) sends the tab to sign-in. */
function onError(error: unknown) {
  if (error instanceof ApiError && error.code === 'unauthenticated') {
    queryClient.setQueryData(sessionKeys.session(), null);
  }
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // A 4xx will not get better by asking again; a network blip might.
      retry: (count, error) =>
        !(error instanceof ApiError && error.status > 0 && error.status < 500) && count < 2,
    },
  },
});

prefetchBoardOf(queryClient, window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
