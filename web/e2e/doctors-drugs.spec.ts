import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectConsoleErrors, expectAccessible, openSite, operatorMail, siteUrl } from './support';

// The household's doctors and prescriptions on a 360 px phone: listed once on the medical plan
// page (typeahead over the demo provider and formulary files scripts/e2e.sh loads), each plan's
// card saying what it covers, a member switched to high use, the list sorted by the yearly
// estimate, then saved for later and resumed in another browser with the lists still there.

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/screens';

const COUPLE = {
  sub_first_name: 'Nadia',
  sub_last_name: 'Okonkwo',
  email: 'nadia.okonkwo@example.com',
  sub_gender: 'F',
  sub_birth_date: '1979-04-02',
  sub_tobacco: 0,
  residential_zip: '48104',
  residential_county_id: 161,
  medicare_eligible: 0,
  wants_subsidy: 0,
  spouse: { gender: 'M', birth_date: '1977-09-12', tobacco: 0 },
};

async function startHousehold(page: Page): Promise<void> {
  await openSite(page, 'acme');
  const statuses = await page.evaluate(async (census) => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const put = async (path: string, body: unknown) =>
      (
        await fetch(path, {
          method: 'PUT',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
          body: JSON.stringify(body),
        })
      ).status;
    return [await put('/api/application/step/whyApplying', { enrollment_type: 'oe' }), await put('/api/application/step/census', census)];
  }, COUPLE);
  expect(statuses).toEqual([200, 200]);
}

const cards = (page: Page): Locator => page.locator('article.ef-plan');

/** A doctor's name from the loaded directory: the first match of a common surname. */
async function pick(page: Page, label: string, text: string): Promise<string> {
  const box = page.getByRole('combobox', { name: label });
  await box.fill(text);
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toBeVisible();
  // Chosen by the keyboard: down to the first option, Enter.
  await box.press('ArrowDown');
  const name = (await listbox.getByRole('option').first().textContent()) ?? '';
  await box.press('Enter');
  return name;
}

test('on a phone, a consumer lists a doctor and two drugs, sees what each plan covers, and finds the lists again after resuming elsewhere', async ({
  page,
  browser,
}) => {
  const consoleErrors = collectConsoleErrors(page);
  await startHousehold(page);
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page).first()).toBeVisible();

  // The form comes first: the care panel is one tap away, closed.
  await page.getByText('Your care').first().click();
  const doctor = await pick(page, 'Add a doctor or facility', 'smith');
  await expect(page.getByRole('heading', { name: 'Your doctors' })).toBeVisible();
  const doctorsList = page.locator('.ef-care').getByRole('list').first();
  await expect(doctorsList).toContainText(doctor.split('·')[0]!.trim().slice(0, 10));
  await pick(page, 'Add a prescription drug', 'atorvastatin');
  await pick(page, 'Add a prescription drug', 'metformin');
  await expect(page.getByText('Your care: 1 doctor, 2 prescriptions')).toBeVisible();

  // The husband expects high use.
  await page.getByLabel(/^Spouse, age/).selectOption('high');
  await expect(page.getByRole('status').filter({ hasText: 'Saving…' })).toHaveCount(0);

  // Each card says, per doctor and drug, covered or not.
  const first = cards(page).first();
  await expect(first.getByRole('heading', { name: 'Your doctors and drugs' })).toBeVisible();
  await expect(first.getByText(/In network|Not in network/).first()).toBeVisible();
  await expect(first.getByText(/Covered|Not covered/).first()).toBeVisible();
  await expect(page.getByText(/Provider and drug information as of/).first()).toBeAttached();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/doctors-drugs-360.png`, fullPage: false });
  await first.screenshot({ path: `${SHOTS}/doctors-drugs-card-360.png` });

  // Sorted by the yearly estimate; then only the plans that cover everything.
  await page.getByLabel('Sort by').selectOption('yearly');
  const totals = (await cards(page).locator('.ef-plan__yearly-amount').allTextContents()).map((t) => Number(t.replace(/[$,]/g, '')));
  expect(totals).toEqual([...totals].sort((a, b) => a - b));
  const before = await cards(page).count();
  await page.getByLabel('Only plans that cover all my doctors and drugs').check();
  // Fewer plans, or the message that none covers everything.
  await expect
    .poll(async () => ((await page.getByText('No plan here covers all your doctors and drugs.').count()) > 0 ? 0 : await cards(page).count()))
    .toBeLessThanOrEqual(before);
  for (const card of await cards(page).all()) {
    await expect(card.getByText(/^(Not in network|Not covered)$/)).toHaveCount(0);
  }

  // Saved for later, resumed in another browser: the lists are there.
  await page.getByRole('button', { name: 'Save and finish later' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save and Finish Later' });
  await dialog.getByRole('button', { name: 'Email Me a Link' }).click();
  await expect(dialog.getByRole('status')).toContainText('We sent a link');
  const mail = await operatorMail(COUPLE.email, /^Finish your health coverage application$/);
  const link = /http\S+\/resume\/token\/[0-9a-f]{64}/.exec(mail.body)?.[0];
  expect(link, mail.body).toBeTruthy();
  const other = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const page2 = await other.newPage();
  await page2.goto(link!);
  await page2.getByRole('button', { name: 'Continue my application' }).click();
  await page2.getByRole('button', { name: 'Continue' }).click();
  await expect(page2).toHaveURL(siteUrl('acme', '/medical'));
  await expect(page2.getByText('Your care: 1 doctor, 2 prescriptions')).toBeVisible();
  await page2.getByText('Your care').first().click();
  await expect(page2.getByLabel(/^Spouse, age/)).toHaveValue('high');
  await expect(page2.getByRole('heading', { name: 'Your prescriptions' })).toBeVisible();
  await expect(page2.locator('.ef-care')).toContainText(/atorvastatin/i);
  await expect(page2.locator('.ef-care')).toContainText(/metformin/i);
  await other.close();
  expect(consoleErrors).toEqual([]);
});

test('at 1280 px the care panel opens with the lists and each card shows its coverage', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startHousehold(page);
  await page.goto(siteUrl('acme', '/medical'));
  await page.getByText('Your care').first().click();
  await pick(page, 'Add a doctor or facility', 'family medicine');
  await pick(page, 'Add a prescription drug', 'lisinopril');
  await expect(cards(page).first().getByRole('heading', { name: 'Your doctors and drugs' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/doctors-drugs-1280.png`, fullPage: false });
});
