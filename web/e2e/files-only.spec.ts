import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { aboutAnnLee, apiJson, dbJson, expectAccessible, siteUrl } from './support';

// "a new carrier, a new step, a new plan year: files only". scripts/files-only-e2e.sh
// copies rules/, forms/ and templates/, applies tests/files-only/changes.txt (Great Lakes, carrier 5
// with its own flag, age curve, family rule, Other Questions and HMO plans; a Payment Method step
// between Other Questions and PCP Selection; plan year 2026) and starts the same server binary as
// the other browser tests on that folder, on 2025-11-20, with an agent who offers only Great Lakes
// (tests/files-only/agents.json). Nothing in server/, engine/ or web/ knows any of it.

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const ROOT = process.env.E2E_FILES_ONLY_ROOT ?? '';
const SITE = 'lakes';

interface Flow {
  steps: { id: string; title: string }[];
}
interface Active {
  application: { applicationId: string; submissionTime: string | null } | null;
}

/** An analyst's edit of a file of the running server's rule set. */
function edit(path: string, from: string, to: string): void {
  const file = join(ROOT, path);
  const text = readFileSync(file, 'utf8');
  expect(text.split(from).length - 1, `${from} occurs once in ${path}`).toBe(1);
  writeFileSync(file, text.replace(from, to));
}

/** An analyst's Spanish for a new text (a text without its translation is not served). */
function translate(catalog: string, english: string, spanish: string): void {
  const file = join(ROOT, catalog);
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n${JSON.stringify(english)}: ${JSON.stringify(spanish)}\n`);
}

async function continueTo(page: Page, path: string): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl(SITE, path));
}

let applicationId = '';

test('a consumer buys a Great Lakes plan of 2026 through the new Payment Method step; an edit is live on the next page', async ({
  page,
}) => {
  expect(ROOT, 'run through scripts/files-only-e2e.sh').not.toBe('');
  await page.goto(siteUrl(SITE, '/'));
  await page.getByRole('link', { name: 'Get a Quote' }).click();
  await page.getByRole('radio', { name: 'Open Enrollment' }).check();
  await continueTo(page, '/census');

  await aboutAnnLee(page, '03/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  // The agent is not marketplace certified: no subsidy question after Medicare.
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl(SITE, '/medical'));

  // The 2026 plan year: the only plan is Great Lakes', at its 2026 rate for a 40-year-old.
  const plan = page.getByRole('article', { name: /Great Lakes Silver HMO/ });
  await expect(plan).toHaveCount(1);
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(plan).toContainText('$420.00');
  await plan.getByRole('button', { name: 'Select' }).click();
  await expect(page).toHaveURL(siteUrl(SITE, '/dental'));
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl(SITE, '/vision'));
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl(SITE, '/review'));
  await expect(page.getByRole('heading', { level: 1, name: 'Review Your Selections', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Apply Now' }).click();

  await expect(page).toHaveURL(siteUrl(SITE, '/subInfo'));
  // The progress list names the new step, in its section, once a Great Lakes plan is chosen.
  const progress = page.getByRole('navigation', { name: 'Application progress' });
  await expect(progress.getByText('Payment', { exact: true })).toBeVisible();
  await page.getByLabel(/Social Security Number/).first().fill('123456789');
  await page.getByLabel(/Primary Phone \*/).fill('6165550199');
  await page.getByLabel(/Primary Phone Type/).selectOption({ label: 'Cell' });
  // The citizenship question is the Blue carriers' (forms/subscriber_info.form.yaml): not asked here.
  await expect(page.getByRole('radiogroup', { name: /U.S. Citizen/ })).toHaveCount(0);
  await page.getByLabel(/Street Address/).fill('1 Main St');
  await page.getByLabel(/^City/).fill('Ann Arbor');
  await continueTo(page, '/other');

  // Great Lakes' own question is asked, and is required; the Blue carriers' are not.
  await expect(page.getByLabel(/Who Is Paying the Premium/)).toHaveCount(0);
  const wellness = page.getByRole('radiogroup', { name: /Great Lakes to enroll you in its free wellness program/ });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl(SITE, '/other'));
  await expect(page.getByRole('alert')).toContainText(/wellness program/);
  await wellness.getByRole('radio', { name: 'Yes' }).check();
  await continueTo(page, '/payment');

  // The new step: its form, its validation, and on to PCP Selection (an HMO plan).
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Method', exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('radiogroup', { name: /How will you pay the first premium/ }).getByRole('radio', { name: 'Card' }).check();
  await continueTo(page, '/pcp');
  await expect(page.getByRole('heading', { level: 1, name: 'Primary Care Physician (PCP) Selection' })).toBeVisible();

  // An analyst edits the running server's files: a new title and a new question on the new step.
  await page.evaluate(() => {
    (window as unknown as { sameBundle: boolean }).sameBundle = true;
  });
  // The new texts' Spanish first, as an analyst adds it with them.
  translate('rules/locales/es.yaml', 'How You Will Pay', 'Cómo pagará');
  translate('forms/locales/es.yaml', 'E-mail for premium receipts', 'Correo electrónico para los recibos de la prima');
  edit('rules/flows/enrollment.flow.yaml', '    title: Payment Method\n', '    title: How You Will Pay\n');
  edit(
    'forms/payment.form.yaml',
    '  properties:\n',
    '  properties:\n    billing_email:\n      title: E-mail for premium receipts\n      type: string\n',
  );
  await expect
    .poll(async () => (await apiJson<Flow>(page, '/api/flow')).steps.find((s) => s.id === 'payment')?.title, { timeout: 15_000 })
    .toBe('How You Will Pay');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(siteUrl(SITE, '/payment'));
  await expect(page.getByRole('heading', { level: 1, name: 'How You Will Pay', exact: true })).toBeVisible();
  await expect(page.getByLabel('E-mail for premium receipts')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameBundle?: boolean }).sameBundle)).toBe(true);
  await page.getByLabel('E-mail for premium receipts').fill('ann@example.com');
  await continueTo(page, '/pcp');
  await continueTo(page, '/rap');

  await page.getByRole('button', { name: 'View Terms and Conditions' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await expect(terms).toContainText('Great Lakes Health Plan');
  await terms.getByRole('button', { name: 'Agree' }).click();
  await page.getByLabel('I am the subscriber applying for this coverage').check();
  await page.getByLabel('Subscriber Signature', { exact: true }).fill('Ann Lee');
  await page.getByLabel('Confirm Subscriber Signature').fill('Ann Lee');
  await page.getByLabel('Subscriber Signature Date').fill('11/20/2025');
  await page.getByRole('button', { name: 'Purchase', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
  await expect
    .poll(async () => (await apiJson<Active>(page, '/api/application/active')).application?.submissionTime ?? null)
    .not.toBeNull();
  applicationId = (await apiJson<Active>(page, '/api/application/active')).application?.applicationId ?? '';
  // As stored: the new carrier, the new step's answers (with the question added while it ran), and
  // the summary the dashboard reads, by the flow.
  const stored = dbJson<{ carrier: number; payment: unknown; summary: { first_name: string; email: string } }>(
    `SELECT json_build_object('carrier', medical_carrier_id, 'payment', data->'payment', 'summary', summary)
       FROM applications WHERE id = :'id' AND submission_time IS NOT NULL`,
    { id: applicationId },
  );
  expect(stored.carrier).toBe(5);
  expect(stored.payment).toEqual({ payment_method: 'card', billing_email: 'ann@example.com' });
  expect(stored.summary).toMatchObject({ first_name: 'Ann', email: 'ann@example.com' });
});

test('the agent who offers only Great Lakes sees the submission on the dashboard', async ({ page }) => {
  expect(applicationId, 'the consumer test ran first').not.toBe('');
  await page.goto(siteUrl(SITE, '/login'));
  const login = page.getByRole('dialog', { name: 'Agent Login' });
  await login.getByLabel('Email', { exact: true }).fill('dana.brooks@lakes-benefits.example.com');
  await login.getByLabel('Password', { exact: true }).fill('demo-password-2024');
  await login.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(siteUrl(SITE, '/dashboard/home'));
  await page.goto(siteUrl(SITE, '/dashboard/enrolled'));
  await expect(page.getByRole('heading', { level: 1, name: /Submissions/ })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Ann Lee' });
  await expect(row).toHaveCount(1);
  // Coverage of the 2026 plan year, a medical plan.
  await expect(row).toContainText('01/01/2026');
  await expect(row).toContainText('Medical');
});
