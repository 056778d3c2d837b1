import { execFileSync } from 'node:child_process';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  aboutAnnLee,
  apiJson,
  collectConsoleErrors,
  expectAccessible,
  siteUrl,
  openSite,
  operatorMail,
  answerOtherQuestions,
  storedApplication,
  shown,
} from './support';

// Whole consumer journeys in the browser, each ending where the spec says: a stored
// submission read back through the API, or the page that stops the applicant. Demo data, today
// 2024-11-20 (open enrollment for 2025).

test.describe.configure({ timeout: 180_000 });

interface PlanList {
  plans: { id: number; carrier: number; network: number | null; name: string; include_vision: boolean; rates: { total: number; members: { charged: boolean }[] } }[];
}
interface Active {
  application: { submissionTime: string | null; lastStep: number } | null;
}

async function whyApplying(page: Page, type: RegExp | string): Promise<void> {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await page.getByRole('radio', { name: type }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
}

/** Continue from About You, answering No to Medicare and to the subsidy: the medical plans. */
async function continueToMedical(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
}

/**
 * Chooses the plan named on a plan page and waits until the choice is saved: the next plan page
 * opens only then (asked for sooner, its plans are refused with 403).
 */
async function choose(page: Page, name: string): Promise<void> {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /^\/api\/plans\/[^/]+$/.test(new URL(r.url()).pathname));
  await page.getByRole('article', { name: shown(name), exact: true }).getByRole('button', { name: 'Select' }).click();
  expect((await saved).ok()).toBe(true);
}

/** Subscriber Information for the subscriber alone (the other members' parts by the caller). */
async function subscriberInformation(page: Page): Promise<void> {
  await expect(page).toHaveURL(siteUrl('acme', '/subInfo'));
  await page.getByLabel(/Social Security Number/).first().fill('123456789');
  await page.getByLabel(/Primary Phone \*/).fill('7345550199');
  await page.getByLabel(/Primary Phone Type/).selectOption({ label: 'Cell' });
  await page.getByRole('radiogroup', { name: /U.S. Citizen/ }).first().getByRole('radio', { name: 'Yes' }).check();
  await page.getByLabel(/Street Address/).fill('1 Main St');
  await page.getByLabel(/^City/).fill('Ann Arbor');
}

/** Other Questions, whichever carrier asks them (answered by `answerOtherQuestions`), checked for
 * accessibility, then Continue. */
async function otherQuestions(page: Page): Promise<void> {
  await expect(page).toHaveURL(siteUrl('acme', '/other'));
  await expect(page.getByRole('heading', { level: 1, name: 'Other Questions' })).toBeVisible();
  await answerOtherQuestions(page, 'Ann Lee');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Review and Purchase: terms, signatures, Purchase; the application is then stored as submitted. */
async function purchase(page: Page, signers: string[]): Promise<void> {
  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await page.getByRole('button', { name: 'View Terms and Conditions' }).click();
  await page.getByRole('dialog', { name: 'Terms and Conditions' }).getByRole('button', { name: 'Agree' }).click();
  const agent = signers.includes('Agent');
  await page
    .getByLabel(agent ? 'I am the agent applying on behalf of the applicants' : 'I am the subscriber applying for this coverage')
    .check();
  if (agent) await page.getByLabel('Agent Full Name').fill('Maria Alvarez');
  for (const who of signers) {
    const name = who === 'Subscriber' ? 'Ann Lee' : who === 'Agent' ? 'Maria Alvarez' : 'Bo Lee';
    await page.getByLabel(`${who} Signature`, { exact: true }).fill(name);
    await page.getByLabel(`Confirm ${who} Signature`).fill(name);
    await page.getByLabel(`${who} Signature Date`).fill('11/20/2024');
  }
  await expectAccessible(page);
  await page.getByRole('button', { name: /Purchase|Continue/ }).last().click();
  await expect
    .poll(async () => (await apiJson<Active>(page, '/api/application/active')).application?.submissionTime ?? null)
    .not.toBeNull();
}

test('a single adult in open enrollment buys medical, dental and vision', async ({ page, browser }) => {
  const errors = collectConsoleErrors(page);
  await whyApplying(page, 'Open Enrollment');
  await aboutAnnLee(page, '03/02/1985');
  await continueToMedical(page);

  // A Blue PPO plan (its Other Questions are known), a dental plan without vision, a vision plan.
  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=car_1,net_1');
  await choose(page, medical.plans[0]!.name);
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));
  const dental = await apiJson<PlanList>(page, '/api/plans/2/allPlans?filters=dental_only');
  await choose(page, dental.plans[0]!.name);
  await expect(page).toHaveURL(siteUrl('acme', '/vision'));
  const vision = await apiJson<PlanList>(page, '/api/plans/3/allPlans');
  await choose(page, vision.plans[0]!.name);
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('article')).toHaveCount(3);
  await page.getByRole('button', { name: 'Apply Now' }).click();

  await subscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);
  const info = await apiJson<{ medicalPlan: { id: number }; dentalPlan: { id: number }; visionPlan: { id: number } }>(
    page,
    '/api/plans/planInfo',
  );
  expect([info.medicalPlan.id, info.dentalPlan.id, info.visionPlan.id]).toEqual([
    medical.plans[0]!.id,
    dental.plans[0]!.id,
    vision.plans[0]!.id,
  ]);
  await purchase(page, ['Subscriber']);

  // Submitted: only Review and Purchase opens.
  await page.goto(siteUrl('acme', '/census'));
  await expect(page).not.toHaveURL(siteUrl('acme', '/census'));
  expect(errors.filter((e) => !e.includes('status of 4'))).toEqual([]);

  // The subscriber's receipt (the operator reads it whole; no admin can).
  const receipt = await operatorMail('ann@example.com', /^Your application has been submitted$/);
  const confirmation = /Confirmation number: ([0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4})/.exec(receipt.body)?.[1];
  expect(confirmation, receipt.body).toBeTruthy();
  expect(receipt.body).toContain('Coverage starts: January 1, 2025');
  expect(receipt.body).toContain('(734) 555-0142');
  expect(receipt.body).not.toContain('123456789');

  const bought = await apiJson<{ application: { applicationId: string } }>(page, '/api/application/active');
  // The agent downloads the evidence packet from Submissions; its PDF holds the
  // premiums and the terms agreed to.
  const agentContext = await browser.newContext();
  const agent = await agentContext.newPage();
  await openSite(agent, 'acme');
  await agent.evaluate(async () => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    await fetch('/api/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
      body: JSON.stringify({ email: 'maria.alvarez@acme-insurance.example.com', password: 'demo-password-2024' }),
    });
  });
  await agent.goto(siteUrl('acme', '/dashboard/enrolled'));
  await agent.getByRole('button', { name: 'Actions for Ann Lee' }).first().click();
  await agent.getByRole('menuitem', { name: 'Evidence Packet' }).click();
  const dialog = agent.getByRole('dialog', { name: 'Evidence Packet' });
  await expect(dialog.getByText(confirmation!)).toBeVisible();
  await expect(dialog.getByText('The PDF is ready.')).toBeVisible();
  await expectAccessible(agent);
  const [download] = await Promise.all([agent.waitForEvent('download'), dialog.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(download.suggestedFilename()).toBe(`evidence-${confirmation}.pdf`);
  const file = await download.path();
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  const plans = await apiJson<{ plans: { list: { monthly_premium: string }[]; monthly_total: string } }>(
    agent,
    `/api/dashboard/evidenceJson/${bought.application.applicationId}`,
  );
  expect(plans.plans.list).toHaveLength(3);
  for (const expected of [...plans.plans.list.map((p) => p.monthly_premium), plans.plans.monthly_total, 'Terms and Conditions', 'Michigan for at least 180 days', 'Ann Lee']) {
    expect(text).toContain(expected);
  }
  expect(text).not.toContain('123456789');
  await agentContext.close();
});

test('a consumer saves at Subscriber Information, opens the e-mailed link in another browser and purchases', async ({ page, browser }) => {
  await whyApplying(page, 'Open Enrollment');
  await aboutAnnLee(page, '03/02/1985');
  await continueToMedical(page);
  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=car_1,net_1');
  await choose(page, medical.plans[0]!.name);
  const dental = await apiJson<PlanList>(page, '/api/plans/2/allPlans?filters=dental_only');
  await choose(page, dental.plans[0]!.name);
  const vision = await apiJson<PlanList>(page, '/api/plans/3/allPlans');
  await choose(page, vision.plans[0]!.name);
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/subInfo'));

  // "Save and finish later" e-mails a link.
  await page.getByRole('button', { name: 'Save and finish later' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save and Finish Later' });
  await expectAccessible(page);
  // It goes to the address given on About You, shown before anything is sent.
  await expect(dialog.getByText('ann@example.com')).toBeVisible();
  await dialog.getByRole('button', { name: 'Email Me a Link' }).click();
  await expect(dialog.getByRole('status')).toContainText('We sent a link to ann@example.com');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  const mail = await operatorMail('ann@example.com', /^Finish your health coverage application$/);
  const link = /http\S+\/resume\/token\/[0-9a-f]{64}/.exec(mail.body)?.[0];
  expect(link, mail.body).toBeTruthy();

  // Another browser: the application opens where it was left, the token leaves the address bar.
  const other = await browser.newContext();
  const page2 = await other.newPage();
  // Opening the link spends nothing (a mail scanner opens links too): the person clicks.
  await page2.goto(link!);
  await expect(page2).toHaveURL(siteUrl('acme', '/resume'));
  await expectAccessible(page2);
  await page2.getByRole('button', { name: 'Continue my application' }).click();
  await expect(page2.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  await expect(page2.getByText('nothing has changed since you saved it')).toBeVisible();
  await expectAccessible(page2);
  // The browser that asked for the link let go of the application: its answers are no longer
  // served to it.
  expect(await page.evaluate(async () => (await fetch('/api/application/step/census', { credentials: 'same-origin' })).status)).toBe(403);
  await page2.getByRole('button', { name: 'Continue' }).click();
  await subscriberInformation(page2);
  await page2.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page2);
  await purchase(page2, ['Subscriber']);

  await other.close();

  // The link worked once: another browser is told why it no longer opens anything.
  const late = await browser.newContext();
  const third = await late.newPage();
  await third.goto(link!);
  await third.getByRole('button', { name: 'Continue my application' }).click();
  await expect(third.getByRole('heading', { level: 1, name: 'This link does not open an application' })).toBeVisible();
  await expect(third.getByRole('alert')).toContainText('already been submitted');
  await late.close();
});

test('an agent quotes and sends the application to the customer, who signs and purchases; the dashboard shows it submitted', async ({
  browser,
}) => {
  // The agent quotes through the API (the wizard's own calls), then sends it from Quoting.
  const agentContext = await browser.newContext();
  const agent = await agentContext.newPage();
  await openSite(agent, 'acme');
  const statuses = await agent.evaluate(async () => {
    const token = async () => (await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json()).csrf_token as string;
    const send = async (method: string, path: string, body: unknown) =>
      (
        await fetch(path, {
          method,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': await token() },
          body: JSON.stringify(body),
        })
      ).status;
    const first = async (path: string) => ((await (await fetch(path, { credentials: 'same-origin' })).json()) as { plans: { id: number }[] }).plans[0]!.id;
    return [
      await send('POST', '/api/login', { email: 'maria.alvarez@acme-insurance.example.com', password: 'demo-password-2024' }),
      await send('PUT', '/api/application/step/whyApplying', { enrollment_type: 'oe' }),
      await send('PUT', '/api/application/step/census', {
        sub_first_name: 'Ann',
        sub_last_name: 'Lee',
        email: 'ann.handoffer@example.com',
        sub_gender: 'F',
        sub_birth_date: '1985-03-02',
        sub_tobacco: 0,
        residential_zip: '48104',
        residential_county_id: 161,
        medicare_eligible: 0,
        wants_subsidy: 0,
      }),
      await send('PUT', '/api/plans/1', { selected_plan_id: await first('/api/plans/1/allPlans?filters=car_1,net_1') }),
      await send('PUT', '/api/plans/2', { selected_plan_id: await first('/api/plans/2/allPlans?filters=dental_only') }),
      await send('PUT', '/api/plans/3', { selected_plan_id: await first('/api/plans/3/allPlans') }),
    ];
  });
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  // The agent's wizard offers it too, under the step.
  await agent.goto(siteUrl('acme', '/review'));
  await agent.getByRole('button', { name: 'Send to customer' }).click();
  await expect(agent.getByRole('dialog', { name: 'Send to Customer' }).getByLabel("Customer's Email")).toBeVisible();
  await agent.getByRole('dialog', { name: 'Send to Customer' }).getByRole('button', { name: 'Close' }).last().click();
  await agent.goto(siteUrl('acme', '/dashboard/quoting?q=ann.handoffer'));
  await agent.getByRole('button', { name: 'Actions for Ann Lee' }).click();
  await agent.getByRole('menuitem', { name: 'Send to Customer' }).click();
  const dialog = agent.getByRole('dialog', { name: 'Send to Customer' });
  await expect(dialog.getByLabel("Customer's Email")).toHaveValue('ann.handoffer@example.com');
  await expectAccessible(agent);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog.getByText('Sent to ann.handoffer@example.com.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(agent.getByRole('cell', { name: /^Ann Lee/ }).getByText('Sent to customer')).toBeVisible();

  // The customer, in their own browser.
  const mail = await operatorMail('ann.handoffer@example.com', /^Your health coverage application is ready for you$/);
  const link = /http\S+\/resume\/token\/[0-9a-f]{64}/.exec(mail.body)?.[0];
  expect(link, mail.body).toBeTruthy();
  const customerContext = await browser.newContext();
  const page = await customerContext.newPage();
  await page.goto(link!);
  await page.getByRole('button', { name: 'Continue my application' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your application is ready' })).toBeVisible();
  await expect(page.getByText('Maria Alvarez prepared this application with you.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await subscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);
  await purchase(page, ['Subscriber']);
  await customerContext.close();

  // The agent's Submissions show it, submitted by the customer.
  await agent.goto(siteUrl('acme', '/dashboard/enrolled?q=ann.handoffer'));
  await expect(agent.getByRole('cell', { name: /^Ann Lee/ }).getByText('Submitted by customer')).toBeVisible();
  await agentContext.close();
});

test('a couple with four children on an HMO plan: three children charged, PCP step shown', async ({ page }) => {
  await whyApplying(page, 'Open Enrollment');
  await aboutAnnLee(page, '06/15/1984');
  await page.getByRole('button', { name: 'Add a spouse' }).click();
  const spouse = page.getByRole('group', { name: 'Spouse' });
  await spouse.getByRole('radio', { name: 'Male', exact: true }).check();
  await spouse.getByLabel('Birth Date').fill('02/01/1983');
  await spouse.getByRole('radio', { name: 'No' }).check();
  const births = ['05/05/2010', '09/09/2012', '02/02/2015', '07/07/2018'];
  for (const [i, birth] of births.entries()) {
    await page.getByRole('button', { name: 'Add a dependent' }).click();
    const child = page.getByRole('group', { name: `Dependent ${i + 1}` });
    await child.getByRole('radio', { name: i % 2 ? 'Female' : 'Male', exact: true }).check();
    await child.getByLabel('Birth Date').fill(birth);
  }
  await expectAccessible(page);
  await continueToMedical(page);

  // A Blue Care Network HMO (a Blue carrier: its Other Questions are known).
  const hmo = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=net_2');
  const plan = hmo.plans.find((p) => p.carrier <= 2)!;
  // Six members listed; the youngest child is not charged.
  expect(plan.rates.members).toHaveLength(6);
  expect(plan.rates.members.filter((m) => m.charged)).toHaveLength(5);
  const planCard = page.getByRole('article', { name: shown(plan.name), exact: true });
  await planCard.getByText('Premium for each member').click();
  await expect(planCard.getByRole('row').filter({ hasText: 'Not charged' })).toHaveCount(1);
  await choose(page, plan.name);
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await page.getByRole('button', { name: 'Apply Now' }).click();

  await subscriberInformation(page);
  const spouseInfo = page.getByRole('group', { name: 'Spouse' });
  await spouseInfo.getByLabel(/First Name/).fill('Bo');
  await spouseInfo.getByLabel(/Last Name/).fill('Lee');
  await spouseInfo.getByLabel(/Social Security Number/).fill('223456789');
  await spouseInfo.getByRole('radiogroup', { name: /U.S. Citizen/ }).getByRole('radio', { name: 'Yes' }).check();
  for (const birth of births) {
    const child = page.getByRole('group', { name: `Dependent born ${birth}` });
    await child.getByLabel(/First Name/).fill(`Kid${birth.slice(-2)}`);
    await child.getByLabel(/Last Name/).fill('Lee');
    await child.getByLabel(/Relationship/).selectOption({ label: 'Child' });
    await child.getByLabel(/Social Security Number/).fill(`3234567${birth.slice(-2)}`);
    await child.getByRole('radiogroup', { name: /U.S. Citizen/ }).getByRole('radio', { name: 'Yes' }).check();
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);
  await expect(page).toHaveURL(siteUrl('acme', '/pcp'));
  await expect(page.getByRole('heading', { level: 1, name: 'Primary Care Physician (PCP) Selection' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await purchase(page, ['Subscriber', 'Spouse']);
});

test('Medicare "yes" buys dental and vision only', async ({ page }) => {
  await whyApplying(page, 'Open Enrollment');
  await aboutAnnLee(page, '03/02/1958');
  await page.getByRole('button', { name: 'Continue' }).click();
  const onlyDv = page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'Continue with Dental/Vision Only' });
  await expect(onlyDv).toBeEnabled();
  await onlyDv.click();
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));
  const progress = page.getByRole('navigation', { name: 'Application progress' });
  await expect(progress.getByRole('link', { name: 'Medical' })).toHaveCount(0);

  const dental = await apiJson<PlanList>(page, '/api/plans/2/allPlans?filters=dental_only');
  await choose(page, dental.plans[0]!.name);
  await expect(page).toHaveURL(siteUrl('acme', '/vision'));
  const vision = await apiJson<PlanList>(page, '/api/plans/3/allPlans');
  await choose(page, vision.plans[0]!.name);
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('article')).toHaveCount(2);
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await subscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);
  const info = await apiJson<{ medicalPlan: unknown; skipMedical: boolean }>(page, '/api/plans/planInfo');
  expect(info.skipMedical).toBe(true);
  expect(info.medicalPlan).toBeNull();
  await purchase(page, ['Subscriber']);
});

test('Change Plan from review, then back and forward through the browser history', async ({ page }) => {
  await whyApplying(page, 'Open Enrollment');
  await aboutAnnLee(page, '03/02/1985');
  await continueToMedical(page);
  // Blue PPO plans: their Subscriber Information and Other Questions are the known ones.
  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=car_1,net_1');
  expect(medical.plans.length).toBeGreaterThan(1);
  await choose(page, medical.plans[0]!.name);
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));

  // Change Plan: another medical plan, and review shows it.
  await page.getByRole('article', { name: shown(medical.plans[0]!.name), exact: true }).getByRole('link', { name: 'Change Plan' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  await choose(page, medical.plans[1]!.name);
  // Dental and vision were declined: the new choice goes straight back to review.
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('heading', { level: 1, name: 'Review Your Selections' })).toBeVisible();
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name), exact: true })).toBeVisible();

  // Back and forward: every page comes back from the server with the saved state.
  await page.goBack();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name), exact: true }).getByRole('button', { name: /Selected|Continue/ }).first()).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Review Your Selections' })).toBeVisible();
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name), exact: true })).toBeVisible();
  await page.goto(siteUrl('acme', '/census'));
  await expect(page.getByLabel('First Name').first()).toHaveValue('Ann');

  // On to the purchase: what is bought is the changed plan.
  await page.goto(siteUrl('acme', '/review'));
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name), exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await subscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);
  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  const bought = page.getByRole('table', { name: 'Your plans and their monthly premiums' });
  await expect(bought.getByRole('row')).toHaveCount(3);
  await expect(bought.getByRole('row').nth(1)).toContainText(shown(medical.plans[1]!.name));
  await expect(bought).not.toContainText(shown(medical.plans[0]!.name));
  const info = await apiJson<{ medicalPlan: { id: number } }>(page, '/api/plans/planInfo');
  expect(info.medicalPlan.id).toBe(medical.plans[1]!.id);
  await purchase(page, ['Subscriber']);
  await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
  const stored = await storedApplication(page);
  expect(stored.submitted).toBe(true);
  expect(stored.data.medical_plan).toMatchObject({ id: medical.plans[1]!.id, name: medical.plans[1]!.name });
});

test('the idle warning counts down, Continue keeps the session, then it expires', async ({ page }) => {
  await page.clock.install();
  // About You's own calls are answered first: an answer landing after the jump would count as
  // activity and take the warning away again.
  const settled = Promise.all([
    page.waitForResponse((r) => r.request().method() === 'GET' && r.url().endsWith('/api/application/step/census')),
    page.waitForResponse((r) => r.url().endsWith('/api/events/pageView') && (r.request().postData() ?? '').includes('/census')),
  ]);
  await whyApplying(page, 'Open Enrollment');
  await settled;
  // 29 minutes idle: the warning counts down from 60 (answered at once: it expires a minute later).
  await page.clock.fastForward('29:00');
  const warning = page.getByRole('dialog').filter({ hasText: /\d+ seconds/ });
  await expect(warning).toBeVisible();
  await expectAccessible(page);
  await warning.getByRole('button', { name: 'Continue' }).click();
  await expect(warning).toBeHidden();
  // The full 30 minutes idle: the session has expired; Continue goes home.
  await page.clock.fastForward('30:00');
  const expired = page.getByRole('dialog').filter({ hasText: 'Your session has expired' });
  await expect(expired).toBeVisible();
  await expectAccessible(page);
  await expired.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  const active = await apiJson<Active>(page, '/api/application/active');
  expect(active.application).toBeNull();
});

test('an agent applies for a customer through purchase with the agent signature', async ({ page }) => {
  await openSite(page, 'acme');
  const login = await page.evaluate(async () => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const res = await fetch('/api/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
      body: JSON.stringify({ email: 'maria.alvarez@acme-insurance.example.com', password: 'demo-password-2024' }),
    });
    return res.status;
  });
  expect(login).toBe(200);
  await whyApplying(page, 'Open Enrollment');
  await aboutAnnLee(page, '03/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  // An agent is not asked about Medicare; a marketplace-certified agent gets the subsidy question,
  // worded for the customer.
  const subsidy = page.getByRole('dialog', { name: 'Premium Subsidies' });
  await expect(subsidy).toContainText('your customer');
  await subsidy.getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));

  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=car_1,net_1');
  await choose(page, medical.plans[0]!.name);
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('button', { name: 'Return to dashboard' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await subscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);
  await expect(page.getByLabel('Subscriber Signature', { exact: true })).toHaveCount(0);
  await purchase(page, ['Agent']);

  // Spec part 2, 2: "If the application is already submitted, any target except rap is redirected
  // to rap": the dashboard too, until Return Home lets go of the application.
  await page.goto(siteUrl('acme', '/dashboard/home'));
  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  const thanks = page.getByRole('dialog', { name: 'Thank you!' });
  await thanks.getByRole('button', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
});

/**
 * About You for Ann alone (no Medicare, no subsidy), the first Blue PPO plan, no dental or vision:
 * Review Selections, then Apply Now. Gives the plan.
 */
async function bluePpoToSubscriberInformation(page: Page): Promise<PlanList['plans'][number]> {
  await aboutAnnLee(page, '03/02/1985');
  await continueToMedical(page);
  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=car_1,net_1');
  const plan = medical.plans[0]!;
  await choose(page, plan.name);
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await subscriberInformation(page);
  return plan;
}

test('a qualifying event with a PDF upload through purchase: document contacts, then the stored event and document', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.goto(siteUrl('acme', '/whyapplying'));
  await page.getByRole('radio', { name: 'Qualifying event / loss of coverage / moving to Michigan' }).check();
  await page.getByRole('radio', { name: 'Lost job-based health coverage' }).check();
  await page.getByLabel('Date of Event').fill('11/10/2024');
  const startDates = page.getByRole('radiogroup', { name: 'Coverage Start Date' });
  await startDates.getByRole('radio', { name: 'First of the month after the application' }).check();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n');
  await page.getByLabel(/Upload documentation/).setInputFiles({ name: 'layoff-letter.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByText('Selected: layoff-letter.pdf')).toBeVisible();
  // The file goes once the step is saved.
  const upload = page.waitForResponse((r) => r.url().endsWith('/api/whyapplying/fileupload') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Continue' }).click();
  expect((await upload).status()).toBe(200);
  await expect(page).toHaveURL(siteUrl('acme', '/census'));

  const plan = await bluePpoToSubscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);

  // Review and Purchase: where the documents go, for the application's carrier only, and by when
  // (30 days from 11/20/2024); coverage from the first of the next month.
  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await expect(page.getByText('Submitting Documents', { exact: true })).toHaveCount(1);
  const documents = page.getByRole('region', { name: 'Submitting Documents' });
  await expect(documents).toContainText('please send them by 12/20/2024 to your carrier');
  await expect(documents.getByRole('heading', { level: 3 })).toHaveText(['Blue Cross Blue Shield of Michigan']);
  await expect(documents).toContainText('individualdocs@bcbsm.example.com');
  await expect(documents).toContainText('(877) 555-0101');
  await expect(documents).toContainText('600 E. Lafayette Blvd');
  await expect(documents).toContainText('Detroit, MI 48226');
  await expect(page.getByRole('region', { name: 'Your Plans' })).toContainText('12/01/2024');
  await expect(page.getByRole('table', { name: 'Your plans and their monthly premiums' })).toContainText(shown(plan.name));
  await purchase(page, ['Subscriber']);

  // Purchased: the thank-you dialog; the page no longer asks for the documents.
  await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
  await expectAccessible(page);
  // (By text: behind the modal dialog the page is out of the accessibility tree.)
  await expect(page.getByText('Submitting Documents', { exact: true })).toHaveCount(0);

  // Stored: a special enrollment for the event, with the uploaded PDF attached.
  const stored = await storedApplication(page);
  expect(stored.submitted).toBe(true);
  expect(stored.enrollment_period_type_id).toBe(2);
  expect(stored.effective_date).toBe('2024-12-01');
  expect(stored.medical_carrier_id).toBe(1);
  expect(stored.data.whyApplying).toMatchObject({
    enrollment_type: 'qle',
    enrollment_reason_id: 7,
    qle_event_date: '2024-11-10',
  });
  expect(stored.documents).toHaveLength(1);
  const document = stored.documents[0]!;
  expect(document).toMatchObject({ file_name: 'layoff-letter.pdf', content_type: 'application/pdf', size_bytes: pdf.length });
  expect(stored.data.enrollment_reason_document).toEqual({ id: document.id, file_name: 'layoff-letter.pdf' });
  expect(stored.data.medical_plan).toMatchObject({ id: plan.id });
  // Stored under a random name, not the applicant's.
  expect(document.storage_key).not.toContain('layoff');
  expect(errors.filter((e) => !e.includes('status of 4'))).toEqual([]);
});

test('Subscriber Information bills at another address: the billing ZIP reloads its county, Review and Purchase shows it', async ({
  page,
}) => {
  await whyApplying(page, 'Open Enrollment');
  await bluePpoToSubscriberInformation(page);

  const county = page.getByLabel(/^Billing County/);
  await expect(page.getByLabel(/^Billing Street Address/)).toHaveCount(0);
  await page.getByLabel('Bill me at a different address').check();
  await page.getByLabel(/^Billing Street Address/).fill('500 Center St');
  await page.getByLabel(/^Billing City/).fill('Northville');
  await page.getByLabel(/^Billing State/).selectOption({ label: 'Michigan' });
  await expect(county).toHaveCount(0);

  /** Types a billing ZIP and waits for its county list (by state and ZIP: billingStateZip). */
  const billingZip = async (zip: string, state = 'MI') => {
    const counties = page.waitForResponse((r) => r.url().endsWith(`/billingStateZip/${state}/${zip}`));
    await page.getByLabel(/^Billing ZIP Code/).fill(zip);
    await counties;
  };
  // A billing address may be outside Michigan (spec part 1, 7 billingStateZip): Toledo, Ohio has no
  // county to choose and opens no Residency Notice; a Michigan ZIP under Ohio is refused at once.
  await page.getByLabel(/^Billing State/).selectOption({ label: 'Ohio' });
  await billingZip('43604', 'OH');
  await expect(county).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Residency Notice' })).toHaveCount(0);
  await billingZip('48104', 'OH');
  await expect(page.getByRole('alert').filter({ hasText: '48104 is not a ZIP code of OH.' })).toBeVisible();
  await page.getByLabel(/^Billing State/).selectOption({ label: 'Michigan' });
  // Northville lies in Oakland and Wayne: the select, with both.
  await billingZip('48167');
  await expect(county).toBeVisible();
  await expect(county.locator('option')).toContainText(['Oakland', 'Wayne']);
  await expectAccessible(page);
  // Ann Arbor lies in Washtenaw alone: the county is chosen and the select hidden.
  await billingZip('48104');
  await expect(county).toHaveCount(0);
  // Back to Northville: the select again, without a county chosen.
  await billingZip('48167');
  await expect(county).toBeVisible();
  await county.selectOption({ label: 'Wayne' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);

  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  const contact = page.getByRole('region', { name: 'Contact and Billing Information' });
  await expect(contact).toContainText('Residential Address1 Main StAnn Arbor, MI 48104');
  await expect(contact).toContainText('Billing Address500 Center StNorthville, MI 48167');
  await purchase(page, ['Subscriber']);
  await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();

  const stored = await storedApplication(page);
  expect(stored.submitted).toBe(true);
  expect(stored.data.subInfo).toMatchObject({
    billing_provided: true,
    billing_street: '500 Center St',
    billing_city: 'Northville',
    billing_state: 'MI',
    billing_zip: '48167',
    billing_county_id: 163,
  });
});

test('a double click on Purchase submits once and shows the Thank you dialog', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await whyApplying(page, 'Open Enrollment');
  await bluePpoToSubscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await otherQuestions(page);

  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await page.getByRole('button', { name: 'View Terms and Conditions' }).click();
  await page.getByRole('dialog', { name: 'Terms and Conditions' }).getByRole('button', { name: 'Agree' }).click();
  await page.getByLabel('I am the subscriber applying for this coverage').check();
  await page.getByLabel('Subscriber Signature', { exact: true }).fill('Ann Lee');
  await page.getByLabel('Confirm Subscriber Signature').fill('Ann Lee');
  await page.getByLabel('Subscriber Signature Date').fill('11/20/2024');

  const saves: number[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'PUT' && r.url().endsWith('/api/application/step/rap')) saves.push(r.status());
  });
  const purchased = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/application/step/rap'));
  await page.getByRole('button', { name: 'Purchase' }).dblclick();
  expect((await purchased).status()).toBe(200);

  const thanks = page.getByRole('dialog', { name: 'Thank you!' });
  await expect(thanks).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectAccessible(page);
  // Once the page has settled, one purchase was sent and accepted.
  await page.waitForLoadState('networkidle');
  expect(saves).toEqual([200]);
  const stored = await storedApplication(page);
  expect(stored.submitted).toBe(true);
  expect(stored.data.rap).toMatchObject({ agree_tc: true, subscriber_signature: 'Ann Lee' });
  expect(errors.filter((e) => !e.includes('status of 4'))).toEqual([]);
});

// Spec part 2, Other Questions: the dental attestation's "link 'I want to select a dental plan
// instead' goes to the dental route" - after "Continue without Dental Coverage" the dental step is
// opened again, and the dental plan chosen there is what is bought.
test('after going without dental, "I want to select a dental plan instead" reopens the dental plans', async ({ page }) => {
  await whyApplying(page, 'Open Enrollment');
  await bluePpoToSubscriberInformation(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/other'));
  const progress = page.getByRole('navigation', { name: 'Application progress' });
  await expect(progress.getByText('Dental', { exact: true })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('link', { name: 'I want to select a dental plan instead' }).first().click();

  await expect(page).toHaveURL(siteUrl('acme', '/dental'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dental Plans' })).toBeVisible();
  await expect(progress.getByRole('link', { name: 'Dental', exact: true })).toHaveAttribute('aria-current', 'step');
  const dental = await apiJson<PlanList>(page, '/api/plans/2/allPlans?filters=dental_only');
  await choose(page, dental.plans[0]!.name);
  await expect(page).toHaveURL(siteUrl('acme', '/vision'));
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('article')).toHaveCount(2);
  const info = await apiJson<{ dentalPlan: { id: number } | null }>(page, '/api/plans/planInfo');
  expect(info.dentalPlan?.id).toBe(dental.plans[0]!.id);
});
