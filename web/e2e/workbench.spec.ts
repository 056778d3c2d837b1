import { writeFileSync } from 'node:fs';
import { type Browser, type Page } from '@playwright/test';
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

/** How long an impact may take in the debug build the browser tests run (scripts/e2e.sh gives the
 * server's impact a budget of 140 s). */
const IMPACT_WAIT = 150_000;

type PlanList = { plans: { id: number; name: string; rates: { total: number } }[] };

/** A consumer at the medical plans (a page of their own), and the plan the premium changes touch:
 * one no scenario names (a scenario expecting its premium would fail under the draft, and a
 * failing scenario stops the approval); the consumer's premium of it, read again at each call. */
async function bronzeValue(browser: Browser): Promise<{ consumer: Page; id: number; before: number; premium: () => Promise<number | undefined> }> {
  const consumer = await browser.newPage();
  await consumerAtMedical(consumer);
  const plans = await apiJson<PlanList>(consumer, '/api/plans/1/allPlans');
  const target = plans.plans.find((p) => p.name.includes('Premier PPO Bronze Value'));
  if (!target) throw new Error('Blue Cross Premier PPO Bronze Value is not quoted to the consumer');
  const premium = async () => (await apiJson<PlanList>(consumer, '/api/plans/1/allPlans')).plans.find((p) => p.id === target.id)?.rates.total;
  return { consumer, id: target.id, before: target.rates.total, premium };
}

/** The draft an analyst writes in the editor: the plan's rates with every area's rate at $100.00,
 * noted `plan {id} at $100`, then its impact asked for. */
async function draftPlanAt100(page: Page, planId: number): Promise<void> {
  await tab(page, 'Draft and impact').click();
  await page.getByLabel('File', { exact: true }).selectOption('rules/catalog/2025/medical.yaml');
  const editor = page.getByLabel('Contents of rules/catalog/2025/medical.yaml');
  const text = await servingText(page, 'rules/catalog/2025/medical.yaml');
  const at = text.indexOf(`id: ${planId}`);
  expect(at).toBeGreaterThan(-1);
  const ratesStart = text.indexOf('rates:', at);
  const ratesEnd = text.indexOf('\n', ratesStart);
  const changed = text.slice(ratesStart, ratesEnd).replace(/(\d+): \d+\.\d+/g, '$1: 100.00');
  await editor.fill(text.slice(0, ratesStart) + changed + text.slice(ratesEnd));
  await expect(page.getByText('1 file(s) differ from the serving set:')).toBeVisible();
  await page.getByLabel('What changes and why').fill(`plan ${planId} at $100`);
  await page.getByRole('button', { name: 'See the impact' }).click();
}

/** Of the stored applications (the consumer's among them) the impact shows how many change, never
 * a value or an id. */
async function storedOnlyCounted(page: Page, planId: number): Promise<void> {
  const stored = page.getByRole('region', { name: 'Stored applications' });
  await expect(stored.getByRole('columnheader')).toHaveText(['What changes', 'Applications'], { timeout: IMPACT_WAIT });
  const counted = stored.getByRole('row').filter({ hasText: `medical: plan ${planId} premium changes` });
  await expect(counted.getByRole('cell').nth(1)).toHaveText(/^(fewer than 5|\d+)$/);
  await expect(stored).not.toContainText('$');
}

/** Proposes the draft (asked first) and answers the new proposal's number. */
async function propose(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Propose for approval' }).click();
  await page.getByRole('dialog', { name: 'Propose this draft for approval?' }).getByRole('button', { name: 'Propose', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Proposed: another analyst with the approve permission, or an admin, approves it.' }),
  ).toBeVisible({ timeout: IMPACT_WAIT });
  const openIt = page.getByRole('button', { name: /^Open proposal \d+ in the Proposals tab$/ });
  const id = Number(/\d+/.exec((await openIt.textContent()) ?? '')?.[0]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** The approver, in a browser of their own, on the proposal's page. */
async function approverOn(browser: Browser, id: number, note: string): Promise<{ approver: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const approver = await context.newPage();
  await logIn(approver, APPROVER);
  await expect(approver).toHaveURL(siteUrl('demo', '/dashboard/rules'));
  await tab(approver, 'Proposals').click();
  await approver.getByRole('button', { name: `Open proposal ${id}: ${note}` }).click();
  await expect(approver.getByRole('heading', { level: 2, name: `Proposal ${id}` })).toBeVisible();
  return { approver, close: () => context.close() };
}

test('an analyst sees full transition coverage and the impact of a premium change and proposes it; an approver approves it and rolls it back', async ({
  page,
  browser,
}) => {
  test.setTimeout(480_000);
  const errors = collectConsoleErrors(page);
  // A consumer's application the change will reach, and the premium quoted to them now.
  const { consumer, id: planId, before: beforeTotal, premium } = await bronzeValue(browser);

  // The analyst's session starts on the workbench (an analyst has no dashboard).
  await logIn(page, ANALYST);
  await expect(page).toHaveURL(siteUrl('demo', '/dashboard/rules'));
  await expect(page.getByRole('heading', { level: 1, name: 'Rules workbench' })).toBeVisible();
  await expect(page.getByText('published rule sets (every instance switches')).toBeVisible();
  await expectAccessible(page);

  await tab(page, 'Scenarios and coverage').click();
  const transitions = page.locator('tr[data-kind="transitions"]');
  await expect(transitions).toContainText('100.0%', { timeout: IMPACT_WAIT });
  await expect(page.getByText(/\d+ passed, 0 failed/)).toBeVisible();
  await tab(page, 'Flow').click();
  await expect(page.getByRole('img', { name: "The flow's steps and transitions" })).toBeVisible();
  await expect(page.getByText('not reached)')).toHaveCount(0);

  await draftPlanAt100(page, planId);
  // Made-up households: each one's premium before and after.
  const made = page.getByRole('region', { name: 'Made-up households' });
  const group = made.locator('details', { hasText: `medical: plan ${planId} premium` });
  await expect(group).toBeVisible({ timeout: IMPACT_WAIT });
  const household = group.locator('tbody tr').first();
  await expect(household.locator('td').first()).toHaveText(/^household \d+$/);
  await expect(household.locator('td').nth(1)).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(household.locator('td').nth(2)).toHaveText(/^\$[\d,]+\.\d\d$/);
  await storedOnlyCounted(page, planId);
  await expect(
    page.getByText(
      /^[\d,]+ scenarios run, [\d,]+ changed; [\d,]+ made-up households walked, [\d,]+ changed; [\d,]+ stored applications replayed, (fewer than 5|[\d,]+) changed\.$/,
    ),
  ).toBeVisible();
  await expectAccessible(page);

  // Nothing is published until someone else approves it.
  const id = await propose(page);
  expect(await premium()).toBe(beforeTotal);
  const openIt = page.getByRole('button', { name: `Open proposal ${id} in the Proposals tab` });

  // Its author cannot approve it: the server's reason is shown.
  await openIt.click();
  await expect(page.getByRole('heading', { level: 2, name: `Proposal ${id}` })).toBeVisible();
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.getByRole('dialog', { name: `Approve proposal ${id} and publish it now?` }).getByRole('button', { name: 'Approve and publish now' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You proposed this change' })).toBeVisible();
  expect(await premium()).toBe(beforeTotal);

  // The approver, in a browser of their own, reads the diff and the evidence and approves it now.
  const { approver, close: closeApprover } = await approverOn(browser, id, `plan ${planId} at $100`);
  const approverErrors = collectConsoleErrors(approver);
  const diff = approver.getByRole('region', { name: 'Diff of rules/catalog/2025/medical.yaml' });
  await expect(diff.locator('.ef-workbench__diff-removed').first()).toContainText(/^-\s+rates: /);
  await expect(diff.locator('.ef-workbench__diff-added').first()).toContainText(/^\+\s+rates: .*: 100\.00/);
  await expect(approver.getByText(/^[\d,]+ scenarios run under the proposed set, 0 failed\.$/)).toBeVisible();
  await expect(approver.getByRole('region', { name: 'Made-up households' })).toContainText(`medical: plan ${planId} premium`);
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
  const published = approver.getByRole('row').filter({ has: approver.getByRole('cell', { name: `plan ${planId} at $100` }) });
  await expect(published).toContainText('Publish (serving)');
  await expect(published.getByRole('cell', { name: APPROVER, exact: true })).toBeVisible();
  await approver.getByRole('button', { name: /^Roll back to set/ }).first().click();
  await approver.getByRole('dialog', { name: /^Roll back to set \w+\?$/ }).getByRole('button', { name: 'Roll back', exact: true }).click();
  await expect(approver.getByText(/Rolled back: set \w+ serves again on every instance/)).toBeVisible();
  await expect.poll(premium, { timeout: 5_000 }).toBe(beforeTotal);
  await closeApprover();
  await consumer.close();
  // The author's refused approval is the server's 403, which the browser logs.
  expect(errors.filter((e) => !e.includes('status of 403'))).toEqual([]);
  expect(approverErrors).toEqual([]);
});

/** `YYYY-MM-DDTHH:MM` in Michigan of the minute after the next one on the server's clock: between
 * one and two minutes ahead, what the "Effective from" field takes. */
function michiganMinuteAfterNext(now: string): string {
  const at = new Date(Date.parse(now) + 2 * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Detroit',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Moves the server's clock (scripts/e2e.sh gives it ENROLLFLOW_CLOCK_SHIFT_FILE) forward. */
function moveServerClock(seconds: number): void {
  const file = process.env.ENROLLFLOW_CLOCK_SHIFT_FILE;
  if (!file) throw new Error('the server under test has no clock shift file (scripts/e2e.sh sets ENROLLFLOW_CLOCK_SHIFT_FILE)');
  writeFileSync(file, `${seconds}\n`);
}

test('a change approved for a minute ahead serves from that minute on the server\'s clock, and the audit log lists each step', async ({
  page,
  browser,
}) => {
  test.setTimeout(480_000);
  const errors = collectConsoleErrors(page);
  const { consumer, ...plan } = await bronzeValue(browser);
  const note = `plan ${plan.id} at $100 from the next minutes`;

  // The first analyst drafts and proposes; of stored applications only counts come back.
  await logIn(page, ANALYST);
  await draftPlanAt100(page, plan.id);
  await page.getByLabel('What changes and why').fill(note);
  await storedOnlyCounted(page, plan.id);
  const id = await propose(page);

  // The second approves it for a minute ahead of the server's clock.
  const { approver, close } = await approverOn(browser, id, note);
  const approverErrors = collectConsoleErrors(approver);
  const { now } = await apiJson<{ now: string }>(approver, '/api/admin/rules/status');
  await approver.getByLabel('Effective from (Michigan time)').fill(michiganMinuteAfterNext(now));
  await approver.getByRole('button', { name: 'Approve', exact: true }).click();
  await approver.getByRole('dialog', { name: new RegExp(`^Approve proposal ${id} for `) }).getByRole('button', { name: /^Approve for / }).click();
  const scheduled = approver.getByRole('status').filter({ hasText: /Set \w+ takes effect on / });
  await expect(scheduled).toBeVisible();
  const set = /Set (\w+) takes effect/.exec((await scheduled.textContent()) ?? '')?.[1] ?? '';
  expect(set).toMatch(/^[0-9a-f]{12}$/);

  // Before that minute: the old premium, and the set waits under Scheduled with Cancel.
  expect(await plan.premium()).toBe(plan.before);
  await tab(approver, 'Serving set').click();
  const waiting = approver.getByRole('region', { name: 'Scheduled' });
  await expect(waiting.getByRole('row').filter({ hasText: APPROVER })).toContainText(set);
  await expect(waiting.getByRole('button', { name: new RegExp(`^Cancel set ${set}`) })).toBeVisible();
  expect(await plan.premium()).toBe(plan.before);

  // The server's clock passes that minute: every answer quotes the new premium, without a restart.
  moveServerClock(180);
  await expect.poll(plan.premium, { timeout: 10_000 }).not.toBe(plan.before);

  // An admin reads each step in the audit log: the impact (the analyst; it names the rules' engine
  // hashes), the proposal (the analyst), the approval and the schedule (the approver), these three
  // naming the set.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logIn(admin, ADMIN);
  await admin.goto(siteUrl('demo', '/admin/audit'));
  const table = admin.getByRole('table');
  for (const [action, who, detail] of [
    ['Rules impact run', ANALYST, 'draft='],
    ['Rules proposed', ANALYST, `set=${set}`],
    ['Rules approved', APPROVER, `set=${set}`],
    ['Rules scheduled', APPROVER, `set=${set}`],
  ] as const) {
    await admin.getByLabel('Action').selectOption({ label: action });
    await admin.getByLabel(/^Person's e-mail/).fill(who);
    await admin.getByRole('button', { name: 'Show', exact: true }).click();
    await expect(table.getByRole('row').filter({ hasText: detail }).first()).toContainText(action);
  }
  await adminContext.close();

  // The set before serves again (the tests after this one quote the old premium).
  // Read again (the page remembers its tab), so the history lists the set serving now.
  await approver.reload();
  await expect(tab(approver, 'Serving set')).toHaveAttribute('aria-selected', 'true');
  await approver.getByRole('button', { name: /^Roll back to set/ }).first().click();
  await approver.getByRole('dialog', { name: /^Roll back to set \w+\?$/ }).getByRole('button', { name: 'Roll back', exact: true }).click();
  await expect.poll(plan.premium, { timeout: 5_000 }).toBe(plan.before);
  await close();
  await consumer.close();
  expect(errors).toEqual([]);
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
  await expect(alert).toContainText('rules/scripts/plans.rhai:8');
  await expect(alert.getByRole('region', { name: /plans\.rhai around line 8/ })).toContainText('let = ;');
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
