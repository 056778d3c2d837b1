import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useApplicationStore } from '@/features/application/stores/application-store';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { configureApiClient, resetApiClient } from '@/lib/api-client';
import type { Application } from '@/types/api';
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


describe('guardNavigation', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const redirectToRoot = vi.fn();
  let valid: boolean | 'forbidden' | 'error';
  let lastStep: number;

  beforeEach(() => {
    valid = true;
    lastStep = 4;
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/validStep')) {
        if (valid === 'forbidden') return json(403, { error: 'Forbidden' });
        if (valid === 'error') return json(500, { error: 'boom' });
        return json(200, { valid });
      }
      if (url === `/api/application/${ID}/step`) return json(200, { last_step: lastStep, route: '/dental' });
      return json(404, { error: 'No such API call.' });
    });
    vi.stubGlobal('fetch', fetchMock);
    redirectToRoot.mockReset();
    configureApiClient({ redirectToRoot });
    useAuthStore.setState({ auth: null });
    useApplicationStore.setState({ application: application(), loaded: true });
  });

  afterEach(() => resetApiClient());

  const urls = () => fetchMock.mock.calls.map((c) => String(c[0]));
  const storedLastStep = () => useApplicationStore.getState().application?.lastStep;

  it('asks the server whether a step is valid and proceeds when it is', async () => {
    await expect(guardNavigation({ kind: 'step', step: 'dental' }, '/dental')).resolves.toBeNull();
    expect(urls()[0]).toBe(`/api/application/${ID}/step/dental/validStep`);
  });

  it('sends an invalid step to the root and does not fetch the last step', async () => {
    valid = false;
    await expect(guardNavigation({ kind: 'step', step: 'review' }, '/review')).resolves.toBe('/');
    expect(urls()).toEqual([`/api/application/${ID}/step/review/validStep`]);
    expect(storedLastStep()).toBe(2);
  });

  it('sends the step to the root when the server refuses (403) or fails', async () => {
    valid = 'forbidden';
    await expect(guardNavigation({ kind: 'step', step: 'census' }, '/census')).resolves.toBe('/');
    expect(redirectToRoot).toHaveBeenCalledTimes(1);
    valid = 'error';
    await expect(guardNavigation({ kind: 'step', step: 'census' }, '/census')).resolves.toBe('/');
  });

  it('does not ask about whyApplying, but still refreshes the last step', async () => {
    await expect(guardNavigation({ kind: 'step', step: 'whyApplying' }, '/whyapplying')).resolves.toBeNull();
    await vi.waitFor(() => expect(storedLastStep()).toBe(4));
    expect(urls()).toEqual([`/api/application/${ID}/step`]);
  });

  it('stores the last step after an allowed step navigation', async () => {
    lastStep = 6;
    await expect(guardNavigation({ kind: 'step', step: 'medical' }, '/medical')).resolves.toBeNull();
    await vi.waitFor(() => expect(storedLastStep()).toBe(6));
    expect(urls()).toEqual([`/api/application/${ID}/step/medical/validStep`, `/api/application/${ID}/step`]);
  });

  it('keeps the stored last step when that call fails', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('/validStep') ? json(200, { valid: true }) : json(500, { error: 'boom' }),
    );
    await expect(guardNavigation({ kind: 'step', step: 'vision' }, '/vision')).resolves.toBeNull();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(storedLastStep()).toBe(2);
  });

  it('sends steps to the root without an application, asking nothing', async () => {
    useApplicationStore.setState({ application: null });
    await expect(guardNavigation({ kind: 'step', step: 'census' }, '/census')).resolves.toBe('/');
    await expect(guardNavigation({ kind: 'step', step: 'whyApplying' }, '/whyapplying')).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a submitted application to rap before asking the server', async () => {
    useApplicationStore.setState({ application: application({ submissionTime: '2025-01-02T10:00:00Z' }) });
    await expect(guardNavigation({ kind: 'step', step: 'census' }, '/census')).resolves.toBe('/rap');
    expect(fetchMock).not.toHaveBeenCalled();
    await expect(guardNavigation({ kind: 'step', step: 'rap' }, '/rap')).resolves.toBeNull();
    expect(urls()[0]).toBe(`/api/application/${ID}/step/rap/validStep`);
  });

  // Spec part 2, 2: "If the application is already submitted, any target except rap is redirected
  // to rap" — the dashboard and Manage Messages included. Return Home resets the application; the
  // page then loads afresh without one, and the dashboard opens again.
  it("sends an agent's dashboard and Manage Messages to rap while the application is submitted", async () => {
    useAuthStore.setState({
      auth: { is_authorized: true, is_admin: true, agent_subdomain: 'acme', admin_subdomain: 'acme', impersonating: false, user_name: 'Ann Admin', csrf_token: 't' },
    });
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

  it('ignores a last step that arrives for another application', async () => {
    lastStep = 9;
    await guardNavigation({ kind: 'step', step: 'whyApplying' }, '/whyapplying');
    useApplicationStore.setState({ application: application({ applicationId: 'other', lastStep: 1 }) });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(storedLastStep()).toBe(1);
  });
});
