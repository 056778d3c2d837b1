import { cleanup, render, screen } from '@/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useWorkingOnStore } from '@/features/dashboard/stores/working-on-store';
import type { Application, AuthState } from '@/types/api';
import { StepLayout } from './step-layout';

const agent: AuthState = {
  is_authorized: true,
  is_admin: false,
  works_on_rules: false,
  impersonating: false,
  agent_subdomain: 'acme',
  admin_subdomain: null,
  user_name: 'Maria Alvarez',
  csrf_token: 'tok',
};

function draw() {
  const router = createMemoryRouter([{ element: <StepLayout />, children: [{ path: '*', element: <p>the step</p> }] }], {
    initialEntries: ['/medical'],
  });
  render(<RouterProvider router={router} />);
}

describe('the step layout of an agent who opened a customer from the dashboard', () => {
  afterEach(() => {
    cleanup();
    useAuthStore.setState({ auth: null });
    useApplicationStore.setState({ application: null });
    useWorkingOnStore.setState({ workingOn: null });
  });

  it("says whose application it is, and nothing once another application is the session's", async () => {
    useAuthStore.setState({ auth: agent });
    useApplicationStore.setState({ application: { applicationId: 'a-1', lastStep: 3 } as Application });
    useWorkingOnStore.setState({ workingOn: { applicationId: 'a-1', name: 'Ann Lee' } });
    draw();
    expect(await screen.findByText('the step')).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toBe('Application for Ann Lee');
    cleanup();
    useApplicationStore.setState({ application: { applicationId: 'a-2', lastStep: 1 } as Application });
    draw();
    expect(await screen.findByText('the step')).toBeTruthy();
    expect(screen.queryByText(/Application for/)).toBeNull();
  });
});
