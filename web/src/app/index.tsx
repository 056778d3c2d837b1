import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useSessionStore } from '@/features/session/stores/session-store';
import { configureApiClient } from '@/lib/api-client';
import { createRouter } from './router';

// The API client is shared code; the app tells it where the CSRF token lives and what counts as activity.
configureApiClient({
  csrfToken: () => useAuthStore.getState().auth?.csrf_token,
  onSuccess: () => useSessionStore.getState().touch(),
});

export function App() {
  const [router] = useState(createRouter);
  return <RouterProvider router={router} />;
}
