import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, expectAccessible, siteUrl, openSite } from './support';

// The wizard's form steps drawn by the generic renderer from the server's views (forms/*.form.yaml),
// against the seeded demo data with ENROLLFLOW_TODAY=2024-11-20 (open enrollment for 2025, policies
// effective 01/01/2025).

/** Why Are You Applying?, open enrollment, then the About You page. */
async function startOpenEnrollment(page: Page): Promise<void> {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await expect(page.getByRole('heading', { level: 1, name: 'Why Are You Applying?' })).toBeVisible();
  // Spec part 2: "Continue appears only once a type is chosen".
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Open Enrollment' }).check();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await expect(page.getByRole('heading', { level: 1, name: 'First tell us a little about yourself' })).toBeVisible();
}

/** The subscriber's part of About You. */
async function fillSubscriber(page: Page, birthDate: string, zip = '48104'): Promise<void> {
  await page.getByLabel('First Name').fill('Ann');
  await page.getByLabel('Last Name').fill('Lee');
  await page.getByLabel('Email').fill('ann@example.com');
  await page.getByRole('radiogroup', { name: 'Gender' }).getByRole('radio', { name: 'Female', exact: true }).check();
  await page.getByLabel('Birth Date').fill(birthDate);
  const tobacco = page.getByRole('radiogroup', { name: /Tobacco Use/ }).getByRole('radio', { name: 'No' });
  if (await tobacco.isEnabled()) await tobacco.check();
  await page.getByLabel('ZIP Code').fill(zip);
}

test('Why Are You Applying shows the open enrollment dates and the terms of use to consumers', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  await page.goto(siteUrl('acme', '/whyapplying'));
  await expect(page.getByText('By continuing, you agree to the Terms of Use of this site.')).toBeVisible();
  await page.getByRole('button', { name: 'Read the Terms of Use' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms of Use' });
  await expect(terms).toBeVisible();
  await expectAccessible(page);
  await terms.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(terms).toBeHidden();

  await expect(page.getByRole('heading', { name: 'Open Enrollment' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Open Enrollment' }).check();
  const oe = page.getByRole('region', { name: 'Open Enrollment' });
  // ENROLLFLOW_TODAY=2024-11-20: open enrollment for 2025.
  await expect(oe).toContainText('Open Enrollment Starts');
  await expect(oe).toContainText('11/01/2024');
  await expect(oe).toContainText('01/15/2025');
  await expect(oe).toContainText('01/01/2025');
  await page.getByRole('radio', { name: 'Dental or Dental with Vision' }).check();
  await expect(oe).toBeHidden();
  await expect(page.getByText('Policy Effective Date')).toBeVisible();
  await expect(page.getByText('12/01/2024')).toBeVisible();
  await expectAccessible(page);
  expect(consoleErrors).toEqual([]);
});

test('a consumer answers Why Are You Applying and About You and reaches the medical plans', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  await startOpenEnrollment(page);
  await fillSubscriber(page, '03/02/1985');
  // 48104 lies in one county: it is chosen and no county select is shown.
  await expect(page.getByLabel('County')).toHaveCount(0);
  await expect(page.getByLabel('Birth Date')).toHaveValue('03/02/1985');
  // The tobacco question as the spec words it (part 1, census): regular use in the past six
  // months, four or more times a week, religious or ceremonial use excepted.
  await expect(page.getByRole('radiogroup', { name: /Tobacco Use/ }).first()).toContainText(
    'Have you used tobacco products regularly in the past six months (four or more times per week), excluding religious or ceremonial use?',
  );
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Continue' }).click();
  const medicare = page.getByRole('dialog', { name: 'Medicare Eligible?' });
  await expect(medicare).toBeVisible();
  await expectAccessible(page);
  await medicare.getByRole('button', { name: 'No' }).click();

  const subsidy = page.getByRole('dialog', { name: 'Premium Subsidies' });
  // A question, with Yes and No to answer it, and why it is asked.
  await expect(subsidy).toContainText('Do you want to find out if you qualify for a subsidy?');
  await expect(subsidy).toContainText('not eligible for premium subsidies');
  await expectAccessible(page);
  await subsidy.getByRole('button', { name: 'No' }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  const progress = page.getByRole('navigation', { name: 'Application progress' });
  await expect(progress.getByRole('link', { name: 'Medical' })).toHaveAttribute('aria-current', 'step');

  // Back on About You, the saved answers are shown again (dates mm/dd/yyyy).
  await page.goto(siteUrl('acme', '/census'));
  await expect(page.getByLabel('First Name')).toHaveValue('Ann');
  await expect(page.getByLabel('Birth Date')).toHaveValue('03/02/1985');
  expect(consoleErrors).toEqual([]);
});

test('a qualifying event: its start dates follow the event date, and the PDF goes once the step is saved', async ({ page }) => {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await page.getByRole('radio', { name: 'Qualifying event / loss of coverage / moving to Michigan' }).check();
  await page.getByRole('radio', { name: 'Lost job-based health coverage' }).check();
  // The event's note, and the documentation acceptable for it, under the chosen event.
  await expect(page.getByText('Voluntarily dropping coverage does not qualify.', { exact: false })).toBeVisible();
  await expect(page.getByText('A letter from the employer or former insurer showing the date coverage ends')).toBeVisible();
  await expect(page.getByText('A marriage certificate or marriage license')).toHaveCount(0);
  const startDates = page.getByRole('radiogroup', { name: 'Coverage Start Date' });
  // No start dates before there is an event date: the prompt instead.
  await expect(startDates).toHaveCount(0);
  await expect(page.getByText('Please enter a valid Date of Event.')).toBeVisible();
  await expect(page.getByText('The event must be within the last 60 days.')).toBeVisible();
  // Where documents can be sent instead of the upload.
  const contacts = page.getByRole('region', { name: 'Sending Your Documents' });
  await expect(contacts).toContainText('due within 30 days');
  await expect(contacts.getByRole('heading', { level: 3, name: 'Priority Health' })).toBeVisible();
  await expect(contacts).toContainText('(616) 555-0103');
  await page.getByLabel('Date of Event').fill('11/10/2024');
  // The server recomputes the choices for the answers so far (preview).
  await expect(startDates.getByRole('radio')).toHaveCount(2);
  await startDates.getByRole('radio', { name: 'First of the month after the application' }).check();
  await expect(page.getByText('Please enter a valid Date of Event.')).toHaveCount(0);

  const upload = page.getByLabel(/Upload documentation/);
  await upload.setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3_145_729, 0x20) });
  await expect(page.getByText('The file you chose is larger than the maximum 3 MB allowed.')).toBeVisible();
  await expect(upload).toHaveValue('');
  await upload.setInputFiles({ name: 'layoff-letter.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await expect(page.getByText('Selected: layoff-letter.pdf')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  // Back on the step, the document on file is named.
  await page.goto(siteUrl('acme', '/whyapplying'));
  await expect(page.getByText('On file: layoff-letter.pdf')).toBeVisible();
  await expect(page.getByLabel('Date of Event')).toHaveValue('11/10/2024');
});

test('a consumer who may qualify for a subsidy can shop the public marketplace in a new tab', async ({ page, context }) => {
  // No network in the tests: the marketplace answers from here.
  await context.route('https://www.healthcare.gov/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Marketplace</title>' }));
  await startOpenEnrollment(page);
  await fillSubscriber(page, '03/02/1985');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'Yes' }).click();

  const marketplace = page.getByRole('dialog', { name: 'Shop the Health Insurance Marketplace' });
  await expect(marketplace).toBeVisible();
  // The agent's name and NPN for the marketplace's Application Help.
  await expect(marketplace).toContainText('Maria Alvarez, NPN 17439021');
  // Consumers get the public marketplace only.
  await expect(marketplace.getByRole('button', { name: 'Go to Priority Health' })).toHaveCount(0);
  await expectAccessible(page);
  const popup = page.waitForEvent('popup');
  await marketplace.getByRole('button', { name: 'Shop the Health Insurance Marketplace' }).click();
  const tab = await popup;
  await tab.waitForLoadState();
  expect(tab.url()).toBe('https://www.healthcare.gov/');
  await tab.close();
  // The dialog stays for the way on here.
  await marketplace.getByRole('button', { name: 'Continue with Dental/Vision Only' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));
});

test('a 16-year-old subscriber alone gets the child-only dialog and stays on About You', async ({ page }) => {
  await startOpenEnrollment(page);
  await fillSubscriber(page, '06/01/2008');
  // Under 18 at 01/01/2025: the tobacco question is not asked.
  await expect(page.getByRole('radiogroup', { name: /Tobacco Use/ }).getByRole('radio', { name: 'No' })).toBeDisabled();
  await page.getByRole('button', { name: 'Continue' }).click();

  const dialog = page.getByRole('dialog', { name: 'Child Only Application' });
  await expect(dialog).toContainText('Please contact your agent to apply for child-only coverage.');
  // Close only: no way on from here.
  await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Continue' })).toHaveCount(0);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
});

test('a subscriber under 21 alone gets the possible child-only dialog: Cancel stays, Continue goes on', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  await startOpenEnrollment(page);
  // 20 on the effective date (01/01/2025), with no spouse or dependent.
  await fillSubscriber(page, '01/02/2004');
  await page.getByRole('button', { name: 'Continue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Child Only Application?' });
  await expect(dialog).toContainText(
    'The subscriber is under 21 and no spouse or dependents were entered. If this application is for a child only, please contact your agent. Otherwise choose Continue.',
  );
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expectAccessible(page);
  // Cancel: back on About You, the answers kept, nothing asked next.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await expect(page.getByLabel('Birth Date')).toHaveValue('01/02/2004');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Asked again on the next Continue; Continue in the dialog goes on to the Medicare question.
  await page.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('dialog', { name: 'Medicare Eligible?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog', { name: 'Premium Subsidies' }).getByRole('button', { name: 'No' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));

  // The answer is stored with About You: the dialog is not asked again.
  const census = await apiJson<{ data: Record<string, unknown> }>(page, '/api/application/step/census');
  expect(census.data).toMatchObject({ possible_child_only_ok: true, sub_birth_date: '2004-01-02', medicare_eligible: 0 });
  await page.goto(siteUrl('acme', '/census'));
  await expect(page.getByLabel('Birth Date')).toHaveValue('01/02/2004');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  expect(consoleErrors).toEqual([]);
});

test('no possible child-only dialog at 21, nor under 21 with a dependent', async ({ page }) => {
  await startOpenEnrollment(page);
  // 21 on the effective date: the flow goes straight to the Medicare question.
  await fillSubscriber(page, '01/01/2004');
  await page.getByRole('button', { name: 'Continue' }).click();
  const medicare = page.getByRole('dialog', { name: 'Medicare Eligible?' });
  await expect(medicare).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Child Only Application?' })).toHaveCount(0);
  await medicare.getByRole('button', { name: 'Close modal dialog' }).click();
  await expect(medicare).toBeHidden();

  // 20, with a child on the application: not a child-only application either.
  await page.getByLabel('Birth Date').first().fill('01/02/2004');
  await page.getByRole('button', { name: 'Add a dependent' }).click();
  const child = page.getByRole('group', { name: 'Dependent 1' });
  await child.getByRole('radio', { name: 'Male', exact: true }).check();
  await child.getByLabel('Birth Date').fill('05/05/2023');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(medicare).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Child Only Application?' })).toHaveCount(0);
});

test('an out-of-state county opens the residency notice, which clears the ZIP and the county', async ({ page }) => {
  await startOpenEnrollment(page);
  // Menominee lies on the Wisconsin line: its county or Out of State.
  await fillSubscriber(page, '03/02/1985', '49858');
  const county = page.getByLabel('County');
  await expect(county).toBeVisible();
  await expectAccessible(page);
  await county.selectOption({ label: 'Out of State' });

  const notice = page.getByRole('dialog', { name: 'Residency Notice' });
  await expect(notice).toContainText('49858 is not a valid Michigan ZIP code. You must be a Michigan resident to apply for coverage.');
  await expect(notice).toContainText('Please contact your agent, Maria Alvarez.');
  await expectAccessible(page);
  await notice.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(notice).toBeHidden();
  await expect(page.getByLabel('ZIP Code')).toHaveValue('');
  await expect(page.getByLabel('County')).toHaveCount(0);

  // A ZIP outside Michigan has no county at all: the same notice.
  await page.getByLabel('ZIP Code').fill('90210');
  await expect(page.getByRole('dialog', { name: 'Residency Notice' })).toContainText('90210 is not a valid Michigan ZIP code.');
  // The dialog's own close button (×) clears them too.
  await page.getByRole('dialog', { name: 'Residency Notice' }).getByRole('button', { name: 'Close modal dialog' }).click();
  await expect(page.getByLabel('ZIP Code')).toHaveValue('');
});

test('the server errors show under their fields, with the banner, at the top of the page', async ({ page }) => {
  await startOpenEnrollment(page);
  await page.getByLabel('Last Name').fill('Lee');
  await page.getByLabel('Birth Date').fill('02/30/1985');
  await page.getByRole('button', { name: 'Add a dependent' }).click();
  const dependent = page.getByRole('group', { name: 'Dependent 1' });
  await dependent.getByRole('radiogroup', { name: 'Gender' }).getByRole('radio', { name: 'Male', exact: true }).check();
  // Enter in a field does not send the form.
  await page.getByLabel('Last Name').press('Enter');
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByRole('button', { name: 'Continue' }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'There was a problem with the information you entered.' });
  await expect(banner).toContainText(
    'There was a problem with the information you entered. Please check the highlighted fields and try again.',
  );
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.locator('#ef_sub_first_name__error')).toContainText('The First Name field is required.');
  await expect(page.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#ef_sub_birth_date__error')).toContainText('The Birth Date is not a valid date.');
  await expect(dependent.getByText('The Birth Date field is required.')).toBeVisible();
  // Issue "The spec, to the letter", item 4: the error summary lists each error as a link to its
  // field, focus on it; a link takes the keyboard to the field.
  const summary = banner.getByRole('link');
  await expect(summary.first()).toHaveText('The First Name field is required.');
  await expect(banner).toBeFocused();
  await banner.getByRole('link', { name: 'The First Name field is required.' }).click();
  await expect(page.getByLabel('First Name')).toBeFocused();
  // The census also says "Sorry, something went wrong" (spec part 1, 8).
  await expect(page.getByRole('heading', { name: 'Sorry, something went wrong' })).toBeVisible();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  await expectAccessible(page);
});

/**
 * About You through the API, then a Blue HMO medical plan and no dental or vision: Subscriber
 * Information is next. Gives the plan's name and monthly premium in dollars.
 */
async function readyToApply(page: Page): Promise<{ name: string; total: number }> {
  await openSite(page, 'acme');
  const result = await page.evaluate(async () => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    await send('PUT', '/api/application/step/whyApplying', { enrollment_type: 'oe' });
    await send('PUT', '/api/application/step/census', {
      sub_first_name: 'Ann',
      sub_last_name: 'Lee',
      email: 'ann@example.com',
      sub_gender: 'F',
      sub_birth_date: '1984-06-15',
      sub_tobacco: 0,
      residential_zip: '48104',
      residential_county_id: 161,
      spouse: { gender: 'M', birth_date: '1983-02-01', tobacco: 0 },
      dependents: [{ gender: 'F', birth_date: '2015-09-09' }],
      medicare_eligible: 0,
      wants_subsidy: 0,
    });
    const list = await (await fetch('/api/plans/1/allPlans', { credentials: 'same-origin' })).json();
    const hmo = list.plans.find((p: { carrier: number; network: number }) => p.carrier <= 2 && p.network === 2);
    const steps = [
      await send('PUT', '/api/plans/1', { selected_plan_id: hmo.id }),
      await send('PUT', '/api/plans/2', { selected_plan_id: null }),
      await send('PUT', '/api/plans/3', { selected_plan_id: null }),
      await send('POST', '/api/application/step/review/continue'),
    ];
    return { statuses: steps.map((s) => s.status), plan: { name: String(hmo.name), total: Number(hmo.rates.total) } };
  });
  expect(result.statuses).toEqual([200, 200, 200, 200]);
  return result.plan;
}

test('Subscriber Information, Other Questions, PCP Selection and Review and Purchase draw from their forms', async ({ page }) => {
  test.setTimeout(90_000);
  const consoleErrors = collectConsoleErrors(page);
  const plan = await readyToApply(page);

  await page.goto(siteUrl('acme', '/subInfo'));
  await expect(page.getByRole('heading', { level: 1, name: 'Subscriber Information' })).toBeVisible();
  await expect(page.getByText('* indicates a required field')).toBeVisible();
  // About You's facts are shown, not typed.
  await expect(page.getByLabel('Birth Date').first()).toHaveAttribute('readonly', '');
  await page.getByLabel(/Social Security Number/).first().fill('123456789');
  await expect(page.getByLabel(/Social Security Number/).first()).toHaveValue('123-45-6789');
  await page.getByLabel(/Primary Phone \*/).fill('7345550199');
  await expect(page.getByLabel(/Primary Phone \*/)).toHaveValue('(734) 555-0199');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  // The rest is missing: the server says so under each field.
  await expect(page.getByText('There was a problem with the information you entered.')).toBeVisible();
  // Under the field, and as a link to it in the summary at the top.
  await expect(page.locator('#ef_primary_phone_type_id__error')).toContainText('The Primary Phone Type field is required.');
  await expect(page.getByRole('link', { name: 'The Primary Phone Type field is required.' })).toBeVisible();

  await page.getByLabel(/Primary Phone Type/).selectOption({ label: 'Cell' });
  await page.getByRole('radiogroup', { name: /U.S. Citizen/ }).first().getByRole('radio', { name: 'Yes' }).check();
  await page.getByLabel(/Street Address/).fill('1 Main St');
  await page.getByLabel(/^City/).fill('Ann Arbor');
  const spouse = page.getByRole('group', { name: 'Spouse' });
  await spouse.getByLabel(/First Name/).fill('Bo');
  await spouse.getByLabel(/Last Name/).fill('Lee');
  await spouse.getByLabel(/Social Security Number/).fill('987654321');
  await spouse.getByRole('radiogroup', { name: /U.S. Citizen/ }).getByRole('radio', { name: 'Yes' }).check();
  const child = page.getByRole('group', { name: 'Dependent born 09/09/2015' });
  await child.getByLabel(/First Name/).fill('Cy');
  await child.getByLabel(/Last Name/).fill('Lee');
  await child.getByLabel(/Relationship/).selectOption({ label: 'Child' });
  await child.getByLabel(/Social Security Number/).fill('111223333');
  await child.getByRole('radiogroup', { name: /U.S. Citizen/ }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/other'));
  await expect(page.getByRole('heading', { level: 1, name: 'Other Questions' })).toBeVisible();
  await page.getByRole('radio', { name: 'All applicants are 19 years of age or older.' }).check();
  await page.getByLabel(/^Signature/).fill('Ann Lee');
  await page.getByLabel(/^Date/).fill('11/20/2024');
  await page.getByRole('radiogroup', { name: /Previous Coverage/ }).getByRole('radio', { name: 'No' }).check();
  await page.getByLabel(/Who Is Paying the Premium/).selectOption({ label: 'Self' });
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/pcp'));
  await expect(page.getByRole('heading', { level: 1, name: 'Primary Care Physician (PCP) Selection' })).toBeVisible();
  const ann = page.getByRole('group', { name: 'Ann' });
  await ann.getByLabel('NPI').fill('12345678901');
  await expect(ann.getByLabel('NPI')).toHaveValue('1234567890');
  await page.getByRole('button', { name: 'Continue' }).click();
  // A PCP that is started needs both names (subscriber_pcp_first_name, …).
  await expect(ann.getByText('The First Name field is required.')).toBeVisible();
  await ann.getByLabel('First Name').fill('Grace');
  await ann.getByLabel('Last Name').fill('Hopper');
  // Copy from: Bo's card takes Ann's PCP.
  const bo = page.getByRole('group', { name: 'Bo' });
  await bo.getByLabel('Copy from').selectOption({ label: 'Ann' });
  await expect(bo.getByLabel('Last Name')).toHaveValue('Hopper');
  await expect(bo.getByLabel('NPI')).toHaveValue('1234567890');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(siteUrl('acme', '/rap'));
  await expect(page.getByRole('heading', { level: 1, name: 'Review and Purchase' })).toBeVisible();
  // The review: the applicants (never their SSNs), contact and billing, the plan and the total.
  const applicants = page.getByRole('table', { name: 'Applicants' });
  await expect(applicants.getByRole('row')).toHaveCount(4);
  await expect(applicants.getByRole('row').nth(1)).toContainText('Ann');
  await expect(applicants.getByRole('row').nth(1)).toContainText('06/15/1984');
  await expect(applicants.getByRole('row').nth(2)).toContainText('Bo Lee');
  await expect(applicants.getByRole('row').nth(3)).toContainText('Cy Lee');
  await expect(applicants.getByRole('row').nth(3)).toContainText('09/09/2015');
  await expect(page.getByText(/6789|123-45|123456789/)).toHaveCount(0);
  const contact = page.getByRole('region', { name: 'Contact and Billing Information' });
  await expect(contact).toContainText('(734) 555-0199 (Cell)');
  // No billing address was given: the residential one.
  await expect(contact).toContainText('Billing Address1 Main StAnn Arbor, MI 48104');
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(plan.total);
  const plans = page.getByRole('table', { name: 'Your plans and their monthly premiums' });
  await expect(plans.getByRole('row').nth(1)).toContainText('Medical');
  await expect(plans.getByRole('row').nth(1)).toContainText(money);
  await expect(plans.getByRole('row').last()).toHaveText(`Total Monthly Premium${money}`);
  await expect(page.getByRole('region', { name: 'Your Plans' })).toContainText('01/01/2025');
  // Open enrollment: no documents to send.
  await expect(page.getByRole('region', { name: 'Submitting Documents' })).toHaveCount(0);

  // Purchase waits for the terms.
  const purchase = page.getByRole('button', { name: 'Purchase' });
  await expect(purchase).toBeDisabled();
  await page.getByLabel('I am the subscriber applying for this coverage').check();
  await page.getByLabel('Subscriber Signature', { exact: true }).fill('Ann Lee');
  await page.getByLabel('Confirm Subscriber Signature').fill('Ann Lee');
  await page.getByLabel('Subscriber Signature Date').fill('11/20/2024');
  await page.getByLabel('Spouse Signature', { exact: true }).fill('Bo Lee');
  await page.getByLabel('Confirm Spouse Signature').fill('Bo Lee');
  await page.getByLabel('Spouse Signature Date').fill('11/20/2024');
  await expect(purchase).toBeDisabled();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'View Terms and Conditions' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await expect(terms).toContainText('Dependent children may be covered until they turn 26.');
  await expectAccessible(page);
  await terms.getByRole('button', { name: 'Agree' }).click();
  await expect(page.getByText('You agreed to the Terms and Conditions.')).toBeVisible();
  await expect(purchase).toBeEnabled();
  await purchase.click();

  const thanks = page.getByRole('dialog', { name: 'Thank you!' });
  await expect(thanks).toBeVisible();
  await expectAccessible(page);
  // The purchase is made once: a second one is refused.
  const again = await page.evaluate(async () => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const res = await fetch('/api/application/step/rap', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
      body: JSON.stringify({
        agree_tc: true,
        who_is_applying: 1,
        agree_subscriber_applying: true,
        subscriber_signature: 'Ann Lee',
        subscriber_signature_confirm: 'Ann Lee',
        subscriber_signature_date: '2024-11-20',
        spouse_signature: 'Bo Lee',
        spouse_signature_confirm: 'Bo Lee',
        spouse_signature_date: '2024-11-20',
      }),
    });
    return { status: res.status, body: await res.json() };
  });
  expect(again).toEqual({
    status: 409,
    body: { error: 'This application has already been submitted.', submit_error: 'This application has already been submitted.' },
  });
  const active = await apiJson<{ application: { submissionTime: string | null } }>(page, '/api/application/active');
  expect(active.application.submissionTime).not.toBeNull();

  // Reloaded, the submitted application shows the thank-you state, not the signatures.
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
  await expect(page.getByLabel('Subscriber Signature', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Purchase' })).toHaveCount(0);
  await page.getByRole('dialog', { name: 'Thank you!' }).getByRole('button', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/individual plans tailored to your life/i);
  const after = await apiJson<{ application: unknown }>(page, '/api/application/active');
  expect(after.application).toBeNull();
  // The refused saves above are the only failures the browser reports.
  expect(consoleErrors.filter((e) => !e.includes('status of 422') && !e.includes('status of 409'))).toEqual([]);
});
