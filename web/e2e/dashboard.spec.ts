import { readFile } from 'node:fs/promises';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, expectAccessible, freshCode, siteUrl, openSite, answerOtherQuestions, shown } from './support';

// The agent's Quoting list: a quote made through the API shows, search narrows
// the list, Export downloads Exported_Quotes.xlsx.

const LAST_NAME = 'Quotewright';

/** Logs in as the acme agent and starts one quote (Why Are You Applying?, then About You). */
async function agentWithQuote(page: Page): Promise<void> {
  await openSite(page, 'acme');
  const statuses = await page.evaluate(async (lastName) => {
    const token = async () => (await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json()).csrf_token as string;
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': await token() },
        body: JSON.stringify(body),
      });
      return res.status;
    };
    return [
      await send('POST', '/api/login', { email: 'maria.alvarez@acme-insurance.example.com', password: 'demo-password-2024' }),
      await send('PUT', '/api/application/step/whyApplying', { enrollment_type: 'oe' }),
      await send('PUT', '/api/application/step/census', {
        sub_first_name: 'Zoe',
        sub_last_name: lastName,
        email: 'zoe.quotewright@example.com',
        sub_gender: 'F',
        sub_birth_date: '1984-06-15',
        sub_tobacco: 0,
        residential_zip: '48104',
        residential_county_id: 161,
        spouse: { gender: 'M', birth_date: '1983-02-01', tobacco: 0 },
        dependents: [{ gender: 'F', birth_date: '2015-09-09' }],
        medicare_eligible: 0,
        wants_subsidy: 0,
      }),
    ];
  }, LAST_NAME);
  expect(statuses).toEqual([200, 200, 200]);
}

test('the agent finds a new quote in Quoting, narrows it by search and exports the list', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await agentWithQuote(page);
  // The landing page opened before the API login may answer 419 to its own calls; count from here.
  errors.length = 0;
  await page.goto(siteUrl('acme', '/dashboard/quoting'));
  await expect(page.getByRole('heading', { level: 1, name: /Quoting/ })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: `Zoe ${LAST_NAME}` });
  // The list is sorted by name; the new quote may sit on a later page, so search for it.
  const search = page.getByLabel('Search name & email');
  await search.fill('quotewright');
  await expect(row).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(row).toContainText('zoe.quotewright@example.com');
  // Spec part 2: "Columns include the primary name, email, started by, created date, effective date,
  // last step and product badges" (then Enroll).
  await expect(page.getByRole('columnheader')).toHaveText([
    'Actions',
    /^Subscriber Name/,
    'Email',
    'Started By',
    /^Created Date \(Michigan time\)/,
    /^Effective Date/,
    'Last Step',
    'Products',
    'Enroll',
  ]);
  await expect(row.getByRole('cell').nth(3)).toHaveText('Maria Alvarez');
  // The last step by its title in the flow (the quote stopped after About You).
  const listed = await apiJson<{ rows: { last_application_step_type_id: number }[] }>(page, `/api/dashboard/quotes?searchName=${LAST_NAME}`);
  const flow = await apiJson<{ steps: { number: number; title: string }[] }>(page, '/api/flow');
  const step = flow.steps.find((s) => s.number === listed.rows[0]?.last_application_step_type_id);
  expect(step).toBeTruthy();
  await expect(row.getByRole('cell').nth(6)).toHaveText(step!.title);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1');
  await expectAccessible(page);

  await search.fill('no-such-customer-xyz');
  await expect(page.getByText('No results were found')).toBeVisible();
  await search.fill(LAST_NAME);
  await expect(row).toBeVisible();

  // Sorting by Created Date, newest first, is announced on the header.
  await page.getByRole('button', { name: /Created Date/ }).click();
  await expect(page.getByRole('columnheader', { name: /Created Date/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(row).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Exported_Quotes.xlsx');
  const path = await download.path();
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 2).toString()).toBe('PK'); // an xlsx is a zip
  await expect(page.getByRole('button', { name: 'Export' })).toBeEnabled();

  // Save as scenario: the quote's steps as a YAML scenario, nobody named in it.
  const savingScenario = page.waitForEvent('download');
  await row.getByRole('button', { name: `Actions for Zoe ${LAST_NAME}` }).click();
  await page.getByRole('menuitem', { name: 'Save as scenario' }).click();
  const scenario = await savingScenario;
  expect(scenario.suggestedFilename()).toBe('application-scenario.yaml');
  const yaml = await readFile(await scenario.path(), 'utf8');
  expect(yaml).toContain('submit: whyApplying');
  expect(yaml).toContain('submit: census');
  for (const personal of ['Zoe', LAST_NAME, 'zoe.quotewright@example.com', '1984-06-15']) expect(yaml).not.toContain(personal);

  // Keyboard: the Filters control opens with Enter and the product boxes are reachable.
  await page.getByRole('button', { name: 'Filters' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'true');
  // The box follows the address (the filter is in the URL): click, then wait for it to show checked.
  await page.getByLabel('Medical').click();
  await expect(page.getByLabel('Medical')).toBeChecked();
  await expect(page.getByText('No results were found')).toBeVisible(); // the quote has no plan yet
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('Submissions lists with its own title and columns', async ({ page }) => {
  await agentWithQuote(page);
  await page.goto(siteUrl('acme', '/dashboard/enrolled'));
  await expect(page.getByRole('heading', { level: 1, name: /Submissions/ })).toBeVisible();
  // Spec part 2: "Columns: row menu, Subscriber Name (sortable by last_name), Submit Date (by
  // submission_time), Effective Date (by effective_date), OEP/SEP, Contract Count, Products".
  await expect(page.getByRole('columnheader')).toHaveText([
    'Actions',
    /^Subscriber Name/,
    /^Submit Date \(Michigan time\)/,
    /^Effective Date/,
    'OEP/SEP',
    'Contract Count',
    'Products',
  ]);
  await expect(page.getByRole('columnheader', { name: /Submit Date/ })).toHaveAttribute('aria-sort', 'descending');
  await expectAccessible(page);
});

// ---------------------------------------------------------------------------------------------
// Dashboard home, notifications, the row menu and Manage Messages (spec part 2, section 2).
// Today is 2024-11-20 (scripts/e2e.sh), so this year's chart runs January to November.

const DEMO_PASSWORD = 'demo-password-2024';
const OKAFOR = 'dokafor@lakeshore-benefits.example.com';
const GRACE = 'grace@northstar-financial.example.com';
const ADMIN = 'admin@enrollflow.example.com';

/** Logs in through the API from a page of the site (no modal); the page then reloads its state. */
async function apiLogin(page: Page, subdomain: string, email: string): Promise<void> {
  await openSite(page, subdomain);
  const code = email === ADMIN ? await freshCode(email) : null;
  const status = await page.evaluate(
    async ([e, p, c]) => {
      const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
      const post = (path: string, body: unknown) =>
        fetch(path, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
          body: JSON.stringify(body),
        });
      const res = await post('/api/login', { email: e, password: p });
      // Admins: the authenticator code (the password step keeps the session and its token).
      if (res.status !== 200 || c === null) return res.status;
      return (await post('/api/login/second-factor', { code: c })).status;
    },
    [email, DEMO_PASSWORD, code] as const,
  );
  expect(status).toBe(200);
}

/** A state-changing API call from inside the page (same origin, the session's CSRF token). */
async function apiSend<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; json: T | null }> {
  return page.evaluate(
    async ([m, p, b]) => {
      const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
      const res = await fetch(p, {
        method: m,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    },
    [method, path, body] as const,
  ) as Promise<{ status: number; json: T | null }>;
}

interface AgentItem {
  id: string;
  npn: string;
  first_name: string;
  last_name: string;
}

/** The admin's agent list (the contract's `{agents}` or the bare list). */
async function agentIdByNpn(page: Page, npn: string): Promise<string> {
  const res = await apiJson<{ agents: AgentItem[] } | AgentItem[]>(page, '/api/admin/agentList');
  const list = Array.isArray(res) ? res : res.agents;
  const agent = list.find((a) => a.npn === npn);
  expect(agent, `agent ${npn}`).toBeTruthy();
  return agent!.id;
}

/**
 * The logged-in acme agent buys a medical plan for a customer through the pages (as in
 * journeys.spec.ts): a submission this year with a medical carrier.
 */
async function agentPurchase(page: Page, first: string, last: string): Promise<void> {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await page.getByRole('radio', { name: 'Open Enrollment' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await page.getByLabel('First Name').first().fill(first);
  await page.getByLabel('Last Name').first().fill(last);
  await page.getByLabel('Email').fill(`${last.toLowerCase()}@example.com`);
  await page.getByRole('radiogroup', { name: 'Gender' }).first().getByRole('radio', { name: 'Female', exact: true }).check();
  await page.getByLabel('Birth Date').first().fill('03/02/1985');
  await page.getByRole('radiogroup', { name: /Tobacco Use/ }).first().getByRole('radio', { name: 'No' }).check();
  await page.getByLabel('ZIP Code').fill('48104');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  const medical = await apiJson<{ plans: { name: string }[] }>(page, '/api/plans/1/allPlans?filters=car_1,net_1');
  await page.getByRole('article', { name: shown(medical.plans[0]!.name), exact: true }).getByRole('button', { name: 'Select' }).click();
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/subInfo'));
  await page.getByLabel(/Social Security Number/).first().fill('123456789');
  await page.getByLabel(/Primary Phone \*/).fill('7345550199');
  await page.getByLabel(/Primary Phone Type/).selectOption({ label: 'Cell' });
  await page.getByRole('radiogroup', { name: /U.S. Citizen/ }).first().getByRole('radio', { name: 'Yes' }).check();
  await page.getByLabel(/Street Address/).fill('1 Main St');
  await page.getByLabel(/^City/).fill('Ann Arbor');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/other'));
  await answerOtherQuestions(page, `${first} ${last}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await page.getByRole('button', { name: 'View Terms and Conditions' }).click();
  await page.getByRole('dialog', { name: 'Terms and Conditions' }).getByRole('button', { name: 'Agree' }).click();
  await page.getByLabel('I am the agent applying on behalf of the applicants').check();
  await page.getByLabel('Agent Full Name').fill('Maria Alvarez');
  await page.getByLabel('Agent Signature', { exact: true }).fill('Maria Alvarez');
  await page.getByLabel('Confirm Agent Signature').fill('Maria Alvarez');
  await page.getByLabel('Agent Signature Date').fill('11/20/2024');
  await page.getByRole('button', { name: /Purchase|Continue/ }).last().click();
  await expect
    .poll(async () => (await apiJson<{ application: { submissionTime: string | null } | null }>(page, '/api/application/active')).application?.submissionTime ?? null)
    .not.toBeNull();
  // Spec part 2: "If the application is already submitted, any target except rap is redirected to
  // rap": Return Home lets go of it, and the dashboard opens again.
  await page.getByRole('dialog', { name: 'Thank you!' }).getByRole('button', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
}

test.describe('dashboard home', () => {
  test.describe.configure({ timeout: 180_000 });

  test("an agent's home shows the quotes, submissions and charts the agent made; the row menu and Enroll work", async ({
    page,
  }) => {
    await agentWithQuote(page); // logs in and leaves a quote (Zoe Quotewright), unsubmitted
    await page.evaluate(async () => {
      const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
      await fetch('/api/application/active/reset', { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': auth.csrf_token } });
    }); // then a new application:
    await agentPurchase(page, 'Hana', 'Homeward');

    const errors = collectConsoleErrors(page);
    await page.goto(siteUrl('acme', '/dashboard/home'));
    await expect(page).toHaveTitle(/Dashboard/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The shell.
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(nav.getByRole('link', { name: 'Quoting' })).toHaveAttribute('href', '/dashboard/quoting');
    await expect(nav.getByRole('link', { name: 'Submissions' })).toHaveAttribute('href', '/dashboard/enrolled');
    await expect(nav.getByRole('button', { name: 'Start Quote' })).toBeVisible();
    const shell = await apiJson<{ has_application: boolean; marketplace_links: { title: string; url: string }[]; account_manager: { name: string } | null }>(
      page,
      '/api/dashboard/shell',
    );
    await expect(nav.getByRole('link', { name: 'Continue Quote' })).toHaveCount(shell.has_application ? 1 : 0);
    for (const link of shell.marketplace_links) {
      const a = nav.getByRole('link', { name: new RegExp(link.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first();
      await expect(a).toHaveAttribute('target', '_blank');
      await expect(a).toHaveAttribute('rel', /noopener/);
    }
    if (shell.account_manager) await expect(page.getByText(shell.account_manager.name)).toBeVisible();

    // Recent quotes (newest first) and submissions, five rows at most.
    const quotes = page.getByRole('table', { name: 'Recent Quotes' });
    await expect(quotes).toContainText('Zoe Quotewright');
    expect(await quotes.locator('tbody tr').count()).toBeLessThanOrEqual(5);
    const submissions = page.getByRole('table', { name: 'Recent Submissions' });
    await expect(submissions).toContainText('Hana Homeward');
    expect(await submissions.locator('tbody tr').count()).toBeLessThanOrEqual(5);

    // The charts: drawn, and told in text (this month counts the purchase).
    const ytd = await apiJson<Record<string, number>>(page, '/api/dashboard/enrollmentsYtd');
    expect(ytd['2024-11']).toBeGreaterThanOrEqual(1);
    await expect(page.locator('[data-testid="ytd-chart"] svg').first()).toBeVisible();
    await expect(page.locator('table caption').filter({ hasText: 'Enrollments Year to Date' })).toContainText(
      `Nov: ${ytd['2024-11']}`,
    );
    const share = await apiJson<{ carrierCounts: Record<string, number>; carrierNames: Record<string, string> }>(
      page,
      '/api/dashboard/carrierShare',
    );
    const [carrierId, count] = Object.entries(share.carrierCounts).find(([, n]) => n > 0)!;
    await expect(page.locator('[data-testid="carrier-chart"] svg').first()).toBeVisible();
    await expect(page.getByRole('list', { name: /Enrolled Medical Carriers YTD/ })).toContainText(
      `${share.carrierNames[carrierId]}: ${count}`,
    );
    await expect(page.getByText('Nothing to show yet')).toHaveCount(0);
    // The individual countdown is drawn when the server gives days.
    const countdown = await apiJson<{ days: number | null; message: string | null }>(page, '/api/dashboard/countdownIndividual');
    if (typeof countdown.days === 'number' && countdown.message) await expect(page.getByText(countdown.message)).toBeVisible();
    await expectAccessible(page);

    // Submissions: the row menu from the keyboard, More Info, Send Email.
    await nav.getByRole('link', { name: 'Submissions' }).click();
    // The searched list, drawn: its answer is in (the list before the search may also have one row,
    // and a row drawn again under the keyboard would lose the focus).
    const searched = page.waitForResponse((r) => r.url().includes('/api/dashboard/enrollees') && r.url().includes('searchName=homeward'));
    await page.getByLabel('Search name & email').fill('homeward');
    await searched;
    const row = page.getByRole('row').filter({ hasText: 'Hana Homeward' });
    await expect(page.locator('tbody tr')).toHaveCount(1);
    const menuButton = row.getByRole('button', { name: 'Actions for Hana Homeward' });
    await expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'More Info' })).toBeFocused();
    const mail = menu.getByRole('menuitem', { name: 'Send Email' });
    const href = (await mail.getAttribute('href')) ?? '';
    expect(href.startsWith('mailto:homeward@example.com?subject=')).toBe(true);
    expect(decodeURIComponent(href)).toContain('Dear Hana,');
    expect(decodeURIComponent(href)).toContain('Maria Alvarez');
    await expect(menu.getByRole('menuitem', { name: /View Medical SBC/ })).toHaveCount(await sbcCount(page, 'Hana'));
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(menuButton).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // More Info
    const dialog = page.getByRole('dialog', { name: 'More Info' });
    await expect(dialog).toContainText('Hana Homeward');
    await expect(dialog).toContainText('(734) 555-0199');
    await expect(dialog).toContainText('1 Main St');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    // Quoting: Enroll resumes the quote at its step.
    await page.goto(siteUrl('acme', '/dashboard/quoting'));
    await page.getByLabel('Search name & email').fill(LAST_NAME);
    // (The first test of this file made quotes for the same name: any of them will do.)
    await expect(page.locator('tbody tr').first()).toContainText(`Zoe ${LAST_NAME}`);
    await page.getByRole('button', { name: `Enroll Zoe ${LAST_NAME}` }).first().click();
    await expect(page).not.toHaveURL(/\/dashboard\//);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The step says whose application the agent opened.
    await expect(page.getByRole('status').filter({ hasText: `Application for Zoe ${LAST_NAME}` })).toBeVisible();
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});

/** Whether the submission's row carries an SBC link (the plan catalog decides). */
async function sbcCount(page: Page, first: string): Promise<number> {
  const list = await apiJson<{ rows: { first_name: string; sbc_url: string | null }[] }>(
    page,
    '/api/dashboard/enrollees?searchName=homeward',
  );
  return list.rows.filter((r) => r.first_name === first && r.sbc_url).length;
}

test('a dismissed notification stays dismissed after a reload and moves to the older ones', async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  await apiLogin(admin, 'demo', ADMIN);
  const okafor = await agentIdByNpn(admin, '18820457');
  const title = `Dismiss me ${Date.now()}`;
  const saved = await apiSend<{ message: { id: string } }>(admin, 'PUT', '/api/admin/manageMessage', {
    title,
    publish_date: '2024-11-20',
    content: `<p>${title} <strong>now</strong></p>`,
    is_sticky: false,
    agents: [okafor],
  });
  expect(saved.status).toBe(200);

  const page = await (await browser.newContext()).newPage();
  await apiLogin(page, 'lakeshore', OKAFOR);
  await page.goto(siteUrl('lakeshore', '/dashboard/home'));
  const card = page.getByRole('region', { name: /Notifications/ });
  const item = card.getByRole('listitem').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(card.getByTestId('notifications-count')).toHaveClass(/ds-c-badge--alert/);
  await expectAccessible(page);
  await item.getByRole('button', { name: `Dismiss ${title}` }).click();
  await expect(item).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(card.getByText(/You don’t have any new notifications|Dismiss/).first()).toBeVisible();
  await expect(card.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);

  await card.getByRole('link', { name: 'View All Recent Notifications' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications in the past 30 days' })).toBeVisible();
  const old = page.getByRole('listitem').filter({ hasText: title });
  await expect(old).toBeVisible();
  await expect(old.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);
});

test('an admin sends a sticky message to one agent in Manage Messages: that agent cannot dismiss it, others do not see it', async ({
  browser,
}) => {
  const admin = await (await browser.newContext()).newPage();
  const errors = collectConsoleErrors(admin);
  await apiLogin(admin, 'demo', ADMIN);
  await admin.goto(siteUrl('demo', '/manageMessages'));
  await expect(admin).toHaveTitle(/Manage Messages/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Manage Messages' })).toBeVisible();
  const save = admin.getByRole('button', { name: 'Save message' });
  await expect(save).toBeDisabled();
  await expect(admin.getByRole('button', { name: 'Delete message' })).toBeDisabled();

  // A failed save shows the server's errors under the fields.
  await admin.getByLabel(/^Message Code/).fill('E2E');
  await save.click();
  await expect(admin.locator('.ds-c-inline-error').first()).toBeVisible();
  await expect(admin.getByLabel(/^Title/)).toHaveAttribute('aria-invalid', 'true');

  const title = `Sticky for Grace ${Date.now()}`;
  await admin.getByLabel(/^Title/).fill(`  ${title}  `);
  await admin.getByLabel(/^Publish Date/).fill('2024-11-20');
  await admin.getByLabel(/^Content/).fill(`<p>${title}: <em>please read</em></p>`);
  await admin.getByLabel('Prevent agent from dismissing this message').check();
  await admin.getByRole('button', { name: 'Select All', exact: true }).click();
  await admin.getByRole('button', { name: 'Deselect All' }).click();
  await admin.getByRole('checkbox', { name: /Grace Lindqvist/ }).check();
  await expectAccessible(admin);
  await save.click();
  await expect(admin.getByText('Message has been saved')).toBeVisible();
  await expect(admin.getByLabel(/^Title/)).toHaveValue(''); // a new message resets the form
  const listed = admin.getByRole('button', { name: new RegExp(title) });
  await expect(listed).toContainText('Created');
  await listed.click();
  await expect(admin.getByLabel(/^Title/)).toHaveValue(title); // trimmed
  await expect(admin.getByRole('checkbox', { name: /Grace Lindqvist/ })).toBeChecked();
  await expect(admin.getByLabel('Prevent agent from dismissing this message')).toBeChecked();
  await expect(admin.getByText('Message has been saved')).toHaveCount(0, { timeout: 5000 });
  expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);

  const grace = await (await browser.newContext()).newPage();
  await apiLogin(grace, 'northstar', GRACE);
  await grace.goto(siteUrl('northstar', '/dashboard/home'));
  const item = grace.getByRole('region', { name: /Notifications/ }).getByRole('listitem').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item.locator('em')).toHaveText('please read');
  await expect(item.getByRole('button', { name: /Dismiss/ })).toHaveCount(0);
  await expectAccessible(grace);

  const okafor = await (await browser.newContext()).newPage();
  await apiLogin(okafor, 'lakeshore', OKAFOR);
  await okafor.goto(siteUrl('lakeshore', '/dashboard/home'));
  await expect(okafor.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(okafor.getByRole('region', { name: /Notifications/ }).getByTestId('notifications-count')).toBeVisible();
  await expect(okafor.getByText(title)).toHaveCount(0);
});

// ---------------------------------------------------------------------------------------------
// The agents' lists to the letter (issue "The spec, to the letter", item 1): every page reachable,
// the view in the address, a failed export said, and a page no wider than the window.

const PAGED_QUOTES = 62; // six pages of 12 (spec part 2: "quoting … 12 results per page")
const PAGED_LAST_NAME = 'Pagewright';

/**
 * Logs in as the acme agent and makes `count` quotes (About You filled in) for one last name, each
 * e-mail holding `tag`, so that a search for the tag lists them alone. First names sort in the
 * order made (Paa, Pab, …); the list answers name order: last name, then first name.
 */
async function agentWithQuotes(page: Page, tag: string, count: number): Promise<string[]> {
  await openSite(page, 'acme');
  const firstNames = Array.from({ length: count }, (_, i) => `P${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`);
  const statuses = await page.evaluate(
    async ([names, lastName, t]) => {
      const token = async () => (await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json()).csrf_token as string;
      const send = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(path, {
          method,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': await token() },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return res.status;
      };
      const out = [await send('POST', '/api/login', { email: 'maria.alvarez@acme-insurance.example.com', password: 'demo-password-2024' })];
      for (const [i, first] of names.entries()) {
        out.push(await send('POST', '/api/application/active/reset'));
        out.push(await send('PUT', '/api/application/step/whyApplying', { enrollment_type: 'oe' }));
        out.push(
          await send('PUT', '/api/application/step/census', {
            sub_first_name: first,
            sub_last_name: lastName,
            email: `${t}.${i}@example.com`,
            sub_gender: 'F',
            sub_birth_date: '1984-06-15',
            sub_tobacco: 0,
            residential_zip: '48104',
            residential_county_id: 161,
            medicare_eligible: 0,
            wants_subsidy: 0,
          }),
        );
      }
      return out;
    },
    [firstNames, PAGED_LAST_NAME, tag] as const,
  );
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  return firstNames.map((first) => `${first} ${PAGED_LAST_NAME}`);
}

/**
 * Chooses the first medical, dental and vision plan for the session's quote (after About You): its
 * row then carries the M, D and V badges, each with the plan's name as screen-reader text.
 */
async function choosePlans(page: Page): Promise<void> {
  const lists = ['/api/plans/1/allPlans?filters=car_1,net_1', '/api/plans/2/allPlans?filters=dental_only', '/api/plans/3/allPlans'];
  for (const [i, list] of lists.entries()) {
    const { plans } = await apiJson<{ plans: { id: number }[] }>(page, list);
    const saved = await apiSend(page, 'PUT', `/api/plans/${i + 1}`, { selected_plan_id: plans[0]!.id });
    expect(saved.status, list).toBe(200);
  }
}

test.describe("the agent's lists", () => {
  test.describe.configure({ timeout: 180_000 });

  test('every page of Quoting is reachable with Next and the page numbers; a reload keeps the page and Back returns to the view before', async ({
    page,
  }) => {
    const tag = `pages${Date.now().toString(36)}`;
    const names = await agentWithQuotes(page, tag, PAGED_QUOTES);
    const pages = Math.ceil(PAGED_QUOTES / 12);
    const errors = collectConsoleErrors(page);

    await page.goto(siteUrl('acme', '/dashboard/quoting'));
    await page.getByLabel('Search name & email').fill(tag);
    await expect(page).toHaveURL(siteUrl('acme', `/dashboard/quoting?q=${tag}`));
    const firstRow = page.locator('tbody tr').first();
    const nav = page.getByRole('navigation', { name: 'Pagination' });
    const current = nav.locator('[aria-current="page"]');
    const next = nav.getByRole('link', { name: 'Next page' });
    const previous = nav.getByRole('link', { name: 'Previous page' });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(String(PAGED_QUOTES));
    await expect(firstRow).toContainText(names[0]!);
    await expect(current).toHaveText('1');
    await expect(previous).toHaveAttribute('aria-disabled', 'true');
    // Spec part 2: more than 5 pages show the first, the current and the last with ellipses.
    await expect(nav.locator('.ds-c-pagination__pages')).toHaveText(`1…${pages}`);
    await expectAccessible(page);

    // Next, page after page: each page its rows and its address.
    for (let n = 2; n <= pages; n += 1) {
      await next.click();
      await expect(page).toHaveURL(siteUrl('acme', `/dashboard/quoting?page=${n}&q=${tag}`));
      await expect(current).toHaveText(String(n));
      await expect(firstRow).toContainText(names[(n - 1) * 12]!);
    }
    await expect(page.locator('tbody tr')).toHaveCount(PAGED_QUOTES - (pages - 1) * 12);
    await expect(next).toHaveAttribute('aria-disabled', 'true');
    await expect(next).not.toHaveAttribute('href');

    // The page numbers: the first, then from the keyboard to the middle (ellipses both sides).
    await nav.getByRole('link', { name: 'Page 1' }).click();
    await expect(current).toHaveText('1');
    await expect(firstRow).toContainText(names[0]!);
    await next.focus();
    await page.keyboard.press('Enter');
    await expect(current).toHaveText('2');
    await next.focus();
    await page.keyboard.press('Enter');
    await expect(current).toHaveText('3');
    await expect(nav.locator('.ds-c-pagination__pages')).toHaveText(`1…3…${pages}`);
    await expect(firstRow).toContainText(names[24]!);

    // A reload shows the same view: page 3 of the same search.
    await page.reload();
    await expect(current).toHaveText('3');
    await expect(firstRow).toContainText(names[24]!);
    await expect(page.getByLabel('Search name & email')).toHaveValue(tag);
    // Back: the view before (page 2).
    await page.goBack();
    await expect(page).toHaveURL(siteUrl('acme', `/dashboard/quoting?page=2&q=${tag}`));
    await expect(current).toHaveText('2');
    await expect(firstRow).toContainText(names[12]!);
    // A change of sort starts at page 1 again, and the link of a page opens that view.
    await page.getByRole('button', { name: /Subscriber Name/ }).click();
    await expect(page).toHaveURL(siteUrl('acme', `/dashboard/quoting?q=${tag}&sort=last_name&dir=desc`));
    await expect(firstRow).toContainText(names.at(-1)!);
    const link = await nav.getByRole('link', { name: `Page ${pages}` }).getAttribute('href');
    await page.goto(siteUrl('acme', link!));
    await expect(current).toHaveText(String(pages));
    await expect(firstRow).toContainText(names[PAGED_QUOTES - 1 - (pages - 1) * 12]!);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  test('a failed export says so in an alert with Retry; Retry exports again', async ({ page }) => {
    await agentWithQuote(page);
    await page.goto(siteUrl('acme', '/dashboard/quoting'));
    await expect(page.locator('tbody tr').first()).toBeVisible();
    const exportButton = page.getByRole('button', { name: 'Export' });

    // The export fails (slowly: Export is disabled meanwhile).
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/dashboard/quotesExport**', async (route) => {
      await answered;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Something went wrong!"}' });
    });
    await exportButton.click();
    await expect(page.getByRole('button', { name: 'Exporting…' })).toBeDisabled();
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'The export failed' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('could not be exported');
    await expect(exportButton).toBeEnabled();
    await expectAccessible(page);

    // Retry, the server answering again: the file comes, the alert goes.
    await page.unroute('**/api/dashboard/quotesExport**');
    const downloading = page.waitForEvent('download');
    await alert.getByRole('button', { name: 'Retry' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Exported_Quotes.xlsx');
    expect((await readFile(await download.path())).subarray(0, 2).toString()).toBe('PK');
    await expect(alert).toHaveCount(0);
    await expect(exportButton).toBeFocused();
  });

  for (const width of [1024, 1280]) {
    test(`at ${width} px the lists fit the window: the table scrolls in its own container, the name kept in view`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await agentWithQuote(page);
      await choosePlans(page); // badges with their plans' names: the text that widened the page
      for (const path of ['/dashboard/quoting', '/dashboard/enrolled']) {
        await page.goto(siteUrl('acme', path));
        // The table scrolls in a named region that takes the keyboard's focus.
        const region = page.getByRole('region', { name: /results$/ });
        const name = region.getByRole('columnheader', { name: /Subscriber Name/ });
        await expect(region.locator('tbody tr').first()).toBeVisible();
        await expect(name).toBeVisible();
        await region.focus();
        await expect(region).toBeFocused();
        // No sideways scroll of the page.
        const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        expect(sizes.scroll, `${path} at ${width} px`).toBeLessThanOrEqual(sizes.inner);
        // A table wider than its container scrolls inside it, the name column kept in view: once the
        // row menu's column before it has scrolled away, the name stays at the container's left edge.
        if (await region.evaluate((el) => el.scrollWidth > el.clientWidth)) {
          await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
          await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
          const [box, menu, nameBox] = await Promise.all([region.boundingBox(), region.getByRole('columnheader').first().boundingBox(), name.boundingBox()]);
          const left = Math.max(box!.x, menu!.x + menu!.width);
          expect(Math.abs(nameBox!.x - left), `${path} at ${width} px: the name column in view`).toBeLessThanOrEqual(1);
        }
        await expectAccessible(page);
      }
    });
  }
});
