import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import { useFlowStore, type Flow } from '@/lib/flow';
import type { Application } from '@/types/api';
import { testFlow } from '@/testing/flow';
import { guardNavigation } from './navigation-guard';
import { jsonResponse as json } from '@/testing/kit';

const ID = '0b6a3c2e-1111-4222-8333-444455556666';

const application = (over: Partial<Application> = {}): Application => ({
  applicationId: ID,
  lastStep: 2,
  effectiveDate: null,
  enrollmentPeriodTypeId: null,
  medicalCarrierId: null,
  dentalCarrierId: null,
  visionCarrierId: null,
  medicalNetworkTypeId: null,
  skipMedical: false,
  skipDental: false,
  skipVision: false,
  skipOther: false,
  skipPcp: false,
  submissionTime: null,
  ...over,
});

const step = (flow: Flow, id: string) => ({ kind: 'step' as const, step: flow.steps.find((s) => s.id === id)! });

describe('guardNavigation', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let served: Flow;

  beforeEach(() => {
    served = testFlow({ lastStep: 10, submitted: true });
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) => (String(input) === '/api/flow' ? json(200, served) : json(404, { error: 'No such API call.' })));
    vi.stubGlobal('fetch', fetchMock);
    configureApiClient({ redirectToRoot: vi.fn() });
    useAuthStore.setState({ auth: null });
    useApplicationStore.setState({ application: application(), loaded: true });
    useFlowStore.setState({ flow: null });
  });

  afterEach(() => resetApiClient());

  const storedLastStep = () => useApplicationStore.getState().application?.lastStep;

  it("proceeds to a step the server's flow calls valid and stores the flow's last step", async () => {
    const flow = testFlow({ lastStep: 4 });
    useFlowStore.setState({ flow });
    await expect(guardNavigation(step(flow, 'dental'), '/dental')).resolves.toBeNull();
    expect(storedLastStep()).toBe(4);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a step the flow calls invalid to the root and keeps the stored last step', async () => {
    const flow = testFlow({ lastStep: 4 });
    useFlowStore.setState({ flow });
    await expect(guardNavigation(step(flow, 'review'), '/review')).resolves.toBe('/');
    expect(storedLastStep()).toBe(2);
  });

  it('sends steps to the root without an application, asking nothing', async () => {
    useApplicationStore.setState({ application: null });
    const flow = testFlow();
    await expect(guardNavigation(step(flow, 'census'), '/census')).resolves.toBe('/');
    await expect(guardNavigation(step(flow, 'whyApplying'), '/whyapplying')).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends a submitted application to the flow's submitted step, reading the flow when it has none", async () => {
    useApplicationStore.setState({ application: application({ submissionTime: '2025-01-02T10:00:00Z' }) });
    await expect(guardNavigation(step(served, 'census'), '/census')).resolves.toBe('/rap');
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).toEqual(['/api/flow']);
    await expect(guardNavigation(step(served, 'rap'), '/rap')).resolves.toBeNull();
  });

  // Spec part 2, 2: "If the application is already submitted, any target except rap is redirected
  // to rap" — the dashboard and Manage Messages included. Return Home resets the application; the
  // page then loads afresh without one, and the dashboard opens again.
  it("sends an agent's dashboard and Manage Messages to rap while the application is submitted", async () => {
    useAuthStore.setState({
      auth: { is_authorized: true, is_admin: true, works_on_rules: true, agent_subdomain: 'acme', admin_subdomain: 'acme', impersonating: false, user_name: 'Ann Admin', csrf_token: 't' },
    });
    useFlowStore.setState({ flow: served });
    useApplicationStore.setState({ application: application({ submissionTime: '2025-01-02T10:00:00Z' }) });
    await expect(guardNavigation({ kind: 'agent' }, '/dashboard/home')).resolves.toBe('/rap');
    await expect(guardNavigation({ kind: 'agent' }, '/dashboard/quoting')).resolves.toBe('/rap');
    await expect(guardNavigation({ kind: 'public' }, '/manageMessages')).resolves.toBe('/rap');
    await expect(guardNavigation({ kind: 'admin' }, '/admin/outbox')).resolves.toBe('/rap');
    useApplicationStore.setState({ application: null });
    await expect(guardNavigation({ kind: 'agent' }, '/dashboard/home')).resolves.toBeNull();
    await expect(guardNavigation({ kind: 'public' }, '/manageMessages')).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('leaves non-step routes to the pure rules', async () => {
    await expect(guardNavigation({ kind: 'public' }, '/')).resolves.toBeNull();
    await expect(guardNavigation({ kind: 'agent' }, '/dashboard/home')).resolves.toBe('/login?redirectFrom=%2Fdashboard%2Fhome');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
