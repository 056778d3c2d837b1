import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiJson, enrollflowBin, expectAccessible, openSite, operatorMail, siteUrl } from './support';

// Renewals: the lakeshore agent's book gets last year's customers (the demo data's submissions,
// made in the twelve months before 2024-11-20, most taking effect in 2024); the agent filters the
// premium increases, opens one, sends the renewal options in Spanish; the customer opens the link,
// chooses another plan and re-enrolls; the agent's row says re-enrolled.

test.describe.configure({ timeout: 300_000 });

const LAKESHORE_NPN = '18820457';
const OKAFOR = 'dokafor@lakeshore-benefits.example.com';
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/screens';

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function login(page: Page): Promise<void> {
  await openSite(page, 'lakeshore');
  const status = await page.evaluate(async (email) => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const res = await fetch('/api/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
      body: JSON.stringify({ email, password: 'demo-password-2024' }),
    });
    return res.status;
  }, OKAFOR);
  expect(status).toBe(200);
}

/** Other Questions, whichever carrier's: each carrier asks its own (none asks twice what was kept). */
async function otherQuestions(page: Page, signer: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Other Questions' })).toBeVisible();
  const confirmations = page.getByRole('radiogroup', { name: /Dental Confirmation/ });
  for (let i = 0; i < (await confirmations.count()); i++) await confirmations.nth(i).getByRole('radio').first().check();
  for (const question of [/Previous Coverage/, /Medicaid or CHIP/, /Active Medical Coverage/]) {
    const group = page.getByRole('radiogroup', { name: question });
    if (await group.count()) await group.first().getByRole('radio', { name: 'No' }).check();
  }
  const signature = page.getByLabel(/^Signature/);
  for (let i = 0; i < (await signature.count()); i++) await signature.nth(i).fill(signer);
  const dates = page.getByLabel(/^Date/);
  for (let i = 0; i < (await dates.count()); i++) await dates.nth(i).fill('11/20/2024');
  const payer = page.getByLabel(/Who Is Paying the Premium/);
  if (await payer.count()) await payer.selectOption({ label: 'Self' });
}

interface Row {
  id: string;
  first_name: string | null;
  last_name: string | null;
  status: string;
  follow: string;
}
interface Detail extends Row {
  email: string | null;
  renewal: { plans: { kind: string; current: { members: unknown[] }; alternatives: { plan_id: number }[] }[] };
}

test('an agent sends renewal options in Spanish; the customer chooses another plan and re-enrolls', async ({ browser }) => {
  execFileSync(enrollflowBin(), ['seed-demo-data', '--applications', '150', '--agent', LAKESHORE_NPN], {
    env: { ...process.env, ENROLLFLOW_LOG: 'warn' },
    // The rules are the server's (ENROLLFLOW_ROOT, relative to the repository).
    cwd: '..',
    stdio: 'pipe',
  });
  const agent = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await login(agent);
  await agent.goto(siteUrl('lakeshore', '/dashboard/home'));
  const card = agent.getByRole('region', { name: 'Renewals for 2025' });
  await expect(card.getByText('Days left in Open Enrollment')).toBeVisible();
  await expect(card).toContainText('57');
  await card.getByRole('link', { name: 'Open the worklist' }).click();

  await expect(agent.getByRole('heading', { level: 1, name: 'Renewals for 2025' })).toBeVisible();
  await agent.getByLabel('Status').selectOption('premium_change');
  await agent.getByLabel('Premium', { exact: true }).selectOption('up');
  await expect(agent).toHaveURL(/status=premium_change/);
  await expect(agent).toHaveURL(/change=up/);
  const badges = agent.getByRole('table').getByText('Premium change of 5% or more');
  await expect(badges.first()).toBeVisible();
  await expect(agent.getByRole('table').getByText('Same plan', { exact: true })).toHaveCount(0);
  await expectAccessible(agent);
  await shot(agent, 'renewals-1280');
  // On a phone the worklist comes first, the table scrolling within its own box.
  await agent.setViewportSize({ width: 360, height: 740 });
  await shot(agent, 'renewals-360');
  expect(await agent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await agent.setViewportSize({ width: 1280, height: 800 });

  // A customer covered alone, with a medical plan and an address on file.
  const page = await apiJson<{ rows: Row[] }>(agent, '/api/dashboard/renewals?status=premium_change&change=up');
  let chosen: Detail | null = null;
  for (const r of page.rows) {
    const d = await apiJson<Detail>(agent, `/api/dashboard/renewals/${r.id}`);
    const medical = d.renewal.plans.find((p) => p.kind === 'medical');
    if (d.email && medical && medical.alternatives.length > 0 && d.renewal.plans.every((p) => p.current.members.length === 1)) {
      chosen = d;
      break;
    }
  }
  expect(chosen, 'a customer covered alone').not.toBeNull();
  const customerName = `${chosen!.first_name} ${chosen!.last_name}`;
  await agent.getByRole('button', { name: customerName, exact: true }).first().click();
  const dialog = agent.getByRole('dialog', { name: `${customerName}: renewal for 2025` });
  await expect(dialog.getByRole('columnheader', { name: 'This year' }).first()).toBeVisible();
  await expect(dialog.getByRole('columnheader', { name: 'Alternative 1' }).first()).toBeVisible();
  await expect(dialog.getByRole('rowheader', { name: 'Subscriber' }).first()).toBeVisible();
  await dialog.getByLabel('Email language').selectOption('es');
  await dialog.getByRole('button', { name: 'Send Renewal Options' }).click();
  await expect(dialog.getByText(`Renewal options sent to ${chosen!.email}`)).toBeVisible();
  await expectAccessible(agent);
  await shot(agent, 'renewal-detail-1280');
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  const mail = await operatorMail(chosen!.email!, /opciones de renovación/);
  expect(mail.subject).toContain('2025');
  const link = /http\S+\/resume\/token\/[0-9a-f]{64}/.exec(mail.body)?.[0];
  expect(link, mail.body).toBeTruthy();

  // The customer, in their own browser, on a phone.
  const customer = await (await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })).newPage();
  await customer.goto(link!);
  await customer.getByRole('button', { name: 'Continue my application' }).click();
  await expect(customer).toHaveURL(siteUrl('lakeshore', '/renewal'));
  await expect(customer.getByRole('heading', { level: 1, name: 'Your coverage for 2025' })).toBeVisible();
  const medical = customer.getByRole('group', { name: 'Medical coverage' });
  await expect(medical.getByText('This year')).toBeVisible();
  await expectAccessible(customer);
  await shot(customer, 'renewal-choice-360');
  const width = await customer.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
  await customer.setViewportSize({ width: 1280, height: 800 });
  await shot(customer, 'renewal-choice-1280');
  await customer.setViewportSize({ width: 360, height: 740 });
  await medical.getByRole('radio', { name: /Other plan 1/ }).check();
  await customer.getByRole('button', { name: 'Re-enroll with these plans' }).click();
  await expect(customer).not.toHaveURL(/\/renewal$/);

  // The new year's application: last year's answers filled in; what the rules ask again is asked.
  for (let step = 0; step < 8 && !customer.url().endsWith('/rap'); step++) {
    const path = new URL(customer.url()).pathname;
    await expect(customer.getByRole('button', { name: /Continue|Apply Now|Next/ }).last()).toBeVisible();
    if (path === '/subInfo') {
      const ssn = customer.getByLabel(/Social Security Number/);
      await expect(ssn.first()).toBeVisible();
      // Last year's details are filled in: only what was never stored is asked.
      await expect(customer.getByLabel(/Street Address/)).not.toHaveValue('');
      for (let i = 0; i < (await ssn.count()); i++) await ssn.nth(i).fill(`12345678${i}`);
    } else if (path === '/other') {
      await otherQuestions(customer, customerName);
    } else if (path === '/pcp') {
      const none = customer.getByRole('radio', { name: /assign|No/ });
      if (await none.count()) await none.first().check();
    }
    const before = customer.url();
    await customer.getByRole('button', { name: /Continue|Apply Now|Next/ }).last().click();
    await expect(customer).not.toHaveURL(before);
  }
  await expect(customer).toHaveURL(siteUrl('lakeshore', '/rap'));
  await customer.getByRole('button', { name: 'View Terms and Conditions' }).click();
  await customer.getByRole('dialog', { name: 'Terms and Conditions' }).getByRole('button', { name: 'Agree' }).click();
  await customer.getByLabel('I am the subscriber applying for this coverage').check();
  await customer.getByLabel('Subscriber Signature', { exact: true }).fill(customerName);
  await customer.getByLabel('Confirm Subscriber Signature').fill(customerName);
  await customer.getByLabel('Subscriber Signature Date').fill('11/20/2024');
  await customer.getByRole('button', { name: /Purchase|Continue/ }).last().click();
  await expect
    .poll(async () => (await apiJson<{ application: { submissionTime: string | null } | null }>(customer, '/api/application/active')).application?.submissionTime ?? null)
    .not.toBeNull();

  // The agent's row follows it.
  await agent.goto(siteUrl('lakeshore', `/dashboard/renewals?follow=reenrolled`));
  await expect(agent.getByRole('button', { name: customerName, exact: true }).first()).toBeVisible();
  await expect(agent.getByRole('table').getByText('Re-enrolled')).toBeVisible();
  await shot(agent, 'renewals-reenrolled-1280');
});
