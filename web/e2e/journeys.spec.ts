import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, expectAccessible, siteUrl, openSiteToLogIn, answerOtherQuestions } from './support';

// Whole consumer journeys in the browser (issue 5), each ending where the spec says: a stored
// submission read back through the API, or the page that stops the applicant. Demo data, today
// 2024-11-20 (open enrollment for 2025).

test.describe.configure({ timeout: 180_000 });

interface PlanList {
  plans: { id: number; carrier: number; network: number | null; name: string; include_vision: boolean; rates: { total: number; members: { charged: boolean }[] } }[];
}
interface Active {
  application: { submissionTime: string | null; lastStep: number } | null;
}

const shown = (name: string): string =>
  name
    .replace(/<[^>]+>/g, '')
    .replace(/&reg;/g, '®')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

async function whyApplying(page: Page, type: RegExp | string): Promise<void> {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await page.getByRole('radio', { name: type }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
}

async function subscriber(page: Page, birthDate: string): Promise<void> {
  await page.getByLabel('First Name').first().fill('Ann');
  await page.getByLabel('Last Name').first().fill('Lee');
  await page.getByLabel('Email').fill('ann@example.com');
  await page.getByRole('radiogroup', { name: 'Gender' }).first().getByRole('radio', { name: 'Female', exact: true }).check();
  await page.getByLabel('Birth Date').first().fill(birthDate);
  await page.getByRole('radiogroup', { name: /Tobacco Use/ }).first().getByRole('radio', { name: 'No' }).check();
  await page.getByLabel('ZIP Code').fill('48104');
}

/** Chooses the plan named on a plan page. */
async function choose(page: Page, name: string): Promise<void> {
  await page.getByRole('article', { name: shown(name), exact: true }).getByRole('button', { name: 'Select' }).click();
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

test('a single adult in open enrollment buys medical, dental and vision', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await whyApplying(page, 'Open Enrollment');
  await subscriber(page, '03/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));

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
});

test('a couple with four children on an HMO plan: three children charged, PCP step shown', async ({ page }) => {
  await whyApplying(page, 'Open Enrollment');
  await subscriber(page, '06/15/1984');
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
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));

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
  await subscriber(page, '03/02/1958');
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
  await subscriber(page, '03/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans');
  await choose(page, medical.plans[0]!.name);
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));

  // Change Plan: another medical plan, and review shows it.
  await page.getByRole('article', { name: shown(medical.plans[0]!.name) }).getByRole('link', { name: 'Change Plan' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  await choose(page, medical.plans[1]!.name);
  // Dental and vision were declined: the new choice goes straight back to review.
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name) })).toBeVisible();

  // Back and forward: every page comes back from the server with the saved state.
  await page.goBack();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name) }).getByRole('button', { name: /Selected|Continue/ }).first()).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Review Your Selections' })).toBeVisible();
  await expect(page.getByRole('article', { name: shown(medical.plans[1]!.name) })).toBeVisible();
  await page.goto(siteUrl('acme', '/census'));
  await expect(page.getByLabel('First Name').first()).toHaveValue('Ann');
});

test('the idle warning counts down, Continue keeps the session, then it expires', async ({ page }) => {
  await page.clock.install();
  await whyApplying(page, 'Open Enrollment');
  // 29 minutes idle: the warning counts down from 60 (answered at once: it expires a minute later).
  await page.clock.fastForward('29:00');
  const warning = page.getByRole('dialog').filter({ hasText: /\d+ seconds/ });
  await expect(warning).toBeVisible();
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
  await openSiteToLogIn(page, 'acme');
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
  await subscriber(page, '03/02/1985');
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
});
