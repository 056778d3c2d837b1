import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { aboutAnnLee, apiJson, collectConsoleErrors, enterLoginCode, expectAccessible, siteUrl } from './support';

/** A file of the serving set as the workbench's draft starts from it (the editor shows only the
 * lines on screen, so its text is read from the server). */
async function servingText(page: Page, path: string): Promise<string> {
  const files = await apiJson<{ path: string; text: string }[]>(page, '/api/admin/rules/files');
  const file = files.find((f) => f.path === path);
  if (!file) throw new Error(`no ${path} in the serving set`);
  return file.text;
}

// The rules workbench. scripts/e2e.sh serves the rule sets published in the database
// (--rules-from-database, the folder published at the first start) and shows the Misc menu
// (ENROLLFLOW_PLAYGROUND=true). A change is proposed by one person and approved by another.

const ANALYST = 'analyst@enrollflow.example.com';
/** An analyst with the approve permission (the demo password and authenticator app). */
const APPROVER = 'approver@enrollflow.example.com';
const ADMIN = 'admin@enrollflow.example.com';

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto(siteUrl('demo', '/login'));
  const login = page.getByRole('dialog', { name: 'Agent Login' });
  await login.getByLabel('Email', { exact: true }).fill(email);
  await login.getByLabel('Password', { exact: true }).fill('demo-password-2024');
  await login.getByRole('button', { name: 'Log In', exact: true }).click();
  await enterLoginCode(page, email);
  // Logged in once the dashboard opens (a navigation before it would cancel the login).
  await expect(page).toHaveURL(/\/dashboard\//);
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name });

/** A consumer on acme's site who reached the medical plans (Ann Lee, 39, Washtenaw County). */
async function consumerAtMedical(page: Page): Promise<void> {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await page.getByRole('radio', { name: 'Open Enrollment' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await aboutAnnLee(page, '03/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
}

type PlanList = { plans: { id: number; name: string; rates: { total: number } }[] };

test('an analyst sees full transition coverage and the impact of a premium change and proposes it; an approver approves it and rolls it back', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  // A consumer's application the change will reach, and the premium quoted to them now.
  const consumer = await browser.newPage();
  await consumerAtMedical(consumer);
  const before = await apiJson<PlanList>(consumer, '/api/plans/1/allPlans');
  // A plan no scenario names: a scenario expecting its premium would fail under the draft, and a
  // failing scenario stops the approval.
  const target = before.plans.find((p) => p.name.includes('Premier PPO Bronze Value'));
  if (!target) throw new Error('Blue Cross Premier PPO Bronze Value is not quoted to the consumer');
  const beforeTotal = target.rates.total;
  const premium = async () => (await apiJson<PlanList>(consumer, '/api/plans/1/allPlans')).plans.find((p) => p.id === target.id)?.rates.total;

  // The analyst's session starts on the workbench (an analyst has no dashboard).
  await logIn(page, ANALYST);
  await expect(page).toHaveURL(siteUrl('demo', '/dashboard/rules'));
  await expect(page.getByRole('heading', { level: 1, name: 'Rules workbench' })).toBeVisible();
  await expect(page.getByText('published rule sets (every instance switches')).toBeVisible();
  await expectAccessible(page);

  await tab(page, 'Scenarios and coverage').click();
  const transitions = page.locator('tr[data-kind="transitions"]');
  await expect(transitions).toContainText('100.0%', { timeout: 60_000 });
  await expect(page.getByText(/\d+ passed, 0 failed/)).toBeVisible();
  await tab(page, 'Flow').click();
  await expect(page.getByRole('img', { name: "The flow's steps and transitions" })).toBeVisible();
  await expect(page.getByText('not reached)')).toHaveCount(0);

  // A draft: the plan's rates with every area's rate at $100.00.
  await tab(page, 'Draft and impact').click();
  await page.getByLabel('File', { exact: true }).selectOption('rules/catalog/2025/medical.yaml');
  const editor = page.getByLabel('Contents of rules/catalog/2025/medical.yaml');
  const text = await servingText(page, 'rules/catalog/2025/medical.yaml');
  const at = text.indexOf(`id: ${target.id}`);
  expect(at).toBeGreaterThan(-1);
  const ratesStart = text.indexOf('rates:', at);
  const ratesEnd = text.indexOf('\n', ratesStart);
  const rates = text.slice(ratesStart, ratesEnd);
  const changed = rates.replace(/(\d+): \d+\.\d+/g, '$1: 100.00');
  await editor.fill(text.slice(0, ratesStart) + changed + text.slice(ratesEnd));
  await expect(page.getByText('1 file(s) differ from the serving set:')).toBeVisible();
  await page.getByLabel('What changes and why').fill(`plan ${target.id} at $100`);
  await page.getByRole('button', { name: 'See the impact' }).click();
  // Made-up households: each one's premium before and after.
  const made = page.getByRole('region', { name: 'Made-up households' });
  const group = made.locator('details', { hasText: `medical: plan ${target.id} premium` });
  await expect(group).toBeVisible({ timeout: 60_000 });
  const household = group.locator('tbody tr').first();
  await expect(household.locator('td').first()).toHaveText(/^household \d+$/);
  await expect(household.locator('td').nth(1)).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(household.locator('td').nth(2)).toHaveText(/^\$[\d,]+\.\d\d$/);
  // Stored applications (the consumer's among them): how many change, never a value or an id.
  const stored = page.getByRole('region', { name: 'Stored applications' });
  await expect(stored.getByRole('columnheader')).toHaveText(['What changes', 'Applications']);
  const counted = stored.getByRole('row').filter({ hasText: `medical: plan ${target.id} premium changes` });
  await expect(counted.getByRole('cell').nth(1)).toHaveText(/^(fewer than 5|\d+)$/);
  await expect(stored).not.toContainText('$');
  await expect(
    page.getByText(
      /^[\d,]+ scenarios run, [\d,]+ changed; [\d,]+ made-up households walked, [\d,]+ changed; [\d,]+ stored applications replayed, (fewer than 5|[\d,]+) changed\.$/,
    ),
  ).toBeVisible();
  await expectAccessible(page);

  // Propose (asked first): nothing is published until someone else approves it.
  await page.getByRole('button', { name: 'Propose for approval' }).click();
  await page.getByRole('dialog', { name: 'Propose this draft for approval?' }).getByRole('button', { name: 'Propose', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Proposed: another analyst with the approve permission, or an admin, approves it.' }),
  ).toBeVisible({ timeout: 60_000 });
  expect(await premium()).toBe(beforeTotal);
  const openIt = page.getByRole('button', { name: /^Open proposal \d+ in the Proposals tab$/ });
  const id = Number(/\d+/.exec((await openIt.textContent()) ?? '')?.[0]);
  expect(id).toBeGreaterThan(0);

  // Its author cannot approve it: the server's reason is shown.
  await openIt.click();
  await expect(page.getByRole('heading', { level: 2, name: `Proposal ${id}` })).toBeVisible();
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.getByRole('dialog', { name: `Approve proposal ${id} and publish it now?` }).getByRole('button', { name: 'Approve and publish now' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You proposed this change' })).toBeVisible();
  expect(await premium()).toBe(beforeTotal);

  // The approver, in a browser of their own, reads the diff and the evidence and approves it now.
  const approverBrowser = await browser.newContext();
  const approver = await approverBrowser.newPage();
  const approverErrors = collectConsoleErrors(approver);
  await logIn(approver, APPROVER);
  await expect(approver).toHaveURL(siteUrl('demo', '/dashboard/rules'));
  await tab(approver, 'Proposals').click();
  await approver.getByRole('button', { name: `Open proposal ${id}: plan ${target.id} at $100` }).click();
  await expect(approver.getByRole('heading', { level: 2, name: `Proposal ${id}` })).toBeVisible();
  const diff = approver.getByRole('region', { name: 'Diff of rules/catalog/2025/medical.yaml' });
  await expect(diff.locator('.ef-workbench__diff-removed').first()).toContainText(/^-\s+rates: /);
  await expect(diff.locator('.ef-workbench__diff-added').first()).toContainText(/^\+\s+rates: .*: 100\.00/);
  await expect(approver.getByText(/^[\d,]+ scenarios run under the proposed set, 0 failed\.$/)).toBeVisible();
  await expect(approver.getByRole('region', { name: 'Made-up households' })).toContainText(`medical: plan ${target.id} premium`);
  await expectAccessible(approver);
  await approver.getByRole('button', { name: 'Approve', exact: true }).click();
  await approver
    .getByRole('dialog', { name: `Approve proposal ${id} and publish it now?` })
    .getByRole('button', { name: 'Approve and publish now' })
    .click();
  await expect(approver.getByRole('status').filter({ hasText: 'is published: it serves now' })).toBeVisible();

  // The consumer's site quotes the new premium.
  await expect.poll(premium, { timeout: 5_000 }).not.toBe(beforeTotal);

  // The history names the approver. Rollback (asked first; the approve permission) to the set
  // before: the old premium again.
  await tab(approver, 'Serving set').click();
  const published = approver.getByRole('row').filter({ has: approver.getByRole('cell', { name: `plan ${target.id} at $100` }) });
  await expect(published).toContainText('Publish (serving)');
  await expect(published.getByRole('cell', { name: APPROVER, exact: true })).toBeVisible();
  await approver.getByRole('button', { name: /^Roll back to set/ }).first().click();
  await approver.getByRole('dialog', { name: /^Roll back to set \w+\?$/ }).getByRole('button', { name: 'Roll back', exact: true }).click();
  await expect(approver.getByText(/Rolled back: set \w+ serves again on every instance/)).toBeVisible();
  await expect.poll(premium, { timeout: 5_000 }).toBe(beforeTotal);
  await approverBrowser.close();
  await consumer.close();
  // The author's refused approval is the server's 403, which the browser logs.
  expect(errors.filter((e) => !e.includes('status of 403'))).toEqual([]);
  expect(approverErrors).toEqual([]);
});

test('a draft that does not load is refused with the file, the line and the source around it', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await logIn(page, ANALYST);
  await page.goto(siteUrl('demo', '/dashboard/rules?tab=draft'));
  await page.getByLabel('File', { exact: true }).selectOption('rules/scripts/plans.rhai');
  const editor = page.getByLabel('Contents of rules/scripts/plans.rhai');
  const text = await servingText(page, 'rules/scripts/plans.rhai');
  await editor.fill(text.replace('fn household(app) {', 'fn household(app) { let = ;'));
  await page.getByLabel('What changes and why').fill('A broken script');
  await page.getByRole('button', { name: 'Propose for approval' }).click();
  await page.getByRole('dialog', { name: 'Propose this draft for approval?' }).getByRole('button', { name: 'Propose', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The draft does not load' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('rules/scripts/plans.rhai:5');
  await expect(alert.getByRole('region', { name: /plans\.rhai around line 5/ })).toContainText('let = ;');
  await expectAccessible(page);
  // The refusal is the server's 422, which the browser logs.
  expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
});

// The preview (it replaces the playground; the spec's /playground and Misc menu lead to it).
async function openPreview(page: Page) {
  await logIn(page, ADMIN);
  await expect(page).toHaveURL(siteUrl('demo', '/dashboard/home'));
  await page.getByRole('button', { name: /^Misc/ }).click();
  await page.getByRole('link', { name: 'Playground' }).click();
  await expect(page).toHaveURL(siteUrl('demo', '/dashboard/rules?tab=preview'));
  await expect(page.getByRole('heading', { level: 2, name: 'Preview' })).toBeVisible();
}

const status = (page: Page) => page.locator('.ef-workbench__status').first();
const consumerForm = (page: Page) => page.locator('.ef-workbench__consumer');

test('preview: census answers are validated by the server, the form drawn as consumers see it', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await openPreview(page);

  await page.getByLabel('Step').selectOption('census');
  await page.getByLabel('Sample answers (JSON, optional)').fill('{"sub_first_name": ""}');
  await page.getByRole('button', { name: 'Validate', exact: true }).click();

  await expect(status(page)).toContainText('census');
  await expect(page.getByRole('heading', { name: /^Invalid:/ })).toBeVisible();
  const lastName = page.locator('.ef-workbench__error').filter({ has: page.getByRole('term').filter({ hasText: /^sub_last_name$/ }) });
  await expect(lastName.getByRole('definition')).toContainText('Last Name');
  // The consumer's renderer: Continue asks the rules and shows their errors on the fields.
  await expect(consumerForm(page).getByLabel('Last Name').first()).toBeVisible();
  await consumerForm(page).getByRole('button', { name: 'Continue' }).click();
  await expect(consumerForm(page).getByText('The Last Name field is required.').first()).toBeVisible();

  await page.getByText('Schema', { exact: true }).click();
  await expect(page.getByRole('region', { name: 'Schema (JSON)' })).toContainText('"sub_last_name"');
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('preview: a Priority-only agent is not offered adult-only vision', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await openPreview(page);

  await page.getByLabel('Step').selectOption('whyApplying');
  await page.getByRole('button', { name: 'Show form' }).click();
  await expect(status(page)).toContainText('whyApplying');
  await expect(consumerForm(page).getByRole('radio', { name: 'Adult-only vision' })).toBeVisible();

  await page.getByLabel(/\(display_bcbsm\)/).uncheck();
  await expect(page.getByLabel(/\(display_ph\)/)).toBeChecked();
  await page.getByRole('button', { name: 'Show form' }).click();
  await expect(consumerForm(page).getByRole('radio', { name: 'Adult-only vision' })).toHaveCount(0);
  await expect(consumerForm(page).getByRole('radio', { name: 'Open Enrollment' })).toBeVisible();
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("preview: a plan page lists the sample household's plans on the consumer's plan cards", async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await openPreview(page);
  await page.getByLabel('Step').selectOption('medical');
  await page.getByRole('button', { name: 'Show form' }).click();
  await expect(page.getByText(/Nothing is quoted for this household: no household to quote yet/)).toBeVisible();
  await page.getByLabel(/Sample household and application/).fill(
    JSON.stringify({
      effective_date: '2025-01-01',
      census: { sub_birth_date: '1985-03-02', sub_tobacco: 0, residential_zip: '48104', residential_county_id: 161 },
    }),
  );
  await page.getByRole('button', { name: 'Show form' }).click();
  await expect(page.getByText(/\d+ plans quoted for a household of 1, cheapest first\./)).toBeVisible();
  await expect(consumerForm(page).getByRole('article').first()).toBeVisible();
  expect(await consumerForm(page).getByRole('article').count()).toBeGreaterThan(5);
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('preview: every step draws', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await openPreview(page);
  await expect(page.getByLabel('Step').locator('option')).not.toHaveCount(0);
  const ids = await page.getByLabel('Step').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) {
    await page.getByLabel('Step').selectOption(id);
    await page.getByRole('button', { name: 'Show form' }).click();
    await expect(status(page)).toContainText(`(${id})`);
  }
  expect(errors).toEqual([]);
});
