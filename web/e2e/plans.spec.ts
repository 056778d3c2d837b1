import { readFile } from 'node:fs/promises';
import { type Download, type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, expectAccessible, siteUrl, openSite, shown } from './support';

// The plan pages and Review Selections (spec part 1, 2.7-2.11 and 4.4), on the `acme` site (Blue
// carriers and Priority). The household is made through the API, as the forms would save it.

// The axe check of a page with some forty plan cards takes several seconds.
test.describe.configure({ timeout: 60_000 });

const ADULT = {
  sub_first_name: 'Ann',
  sub_last_name: 'Lee',
  email: 'ann@example.com',
  sub_gender: 'F',
  sub_birth_date: '1984-06-15',
  sub_tobacco: 0,
  residential_zip: '48104',
  residential_county_id: 161,
  medicare_eligible: 0,
  wants_subsidy: 0,
};

interface PlanList {
  plans: { id: number; carrier: number; carrier_name: string; name: string; rates: { total: number } }[];
  price_range: { min: number; max: number; step: number } | null;
}

/** Why Are You Applying? then About You, through the API; the application then stands at medical. */
async function startHousehold(page: Page): Promise<void> {
  await openSite(page, 'acme');
  const steps = await page.evaluate(async (census) => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const put = async (path: string, body: unknown) => {
      const res = await fetch(path, {
        method: 'PUT',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
        body: JSON.stringify(body),
      });
      return { status: res.status, next: (await res.json())?.next?.id as string | undefined };
    };
    return [await put('/api/application/step/whyApplying', { enrollment_type: 'oe' }), await put('/api/application/step/census', census)];
  }, ADULT);
  expect(steps).toEqual([
    { status: 200, next: 'census' },
    { status: 200, next: 'medical' },
  ]);
}

/** A plan name as the page shows it (names may hold `<sup>&reg;</sup>`). */
const cards = (page: Page): Locator => page.locator('article.ef-plan');
const card = (page: Page, name: string): Locator => page.getByRole('article', { name: shown(name), exact: true });

async function pdfOf(download: Download): Promise<string> {
  const path = await download.path();
  return (await readFile(path)).subarray(0, 5).toString('latin1');
}

/** Clicks a print button and returns the download it starts. */
async function printWith(page: Page, button: Locator): Promise<Download> {
  const started = page.waitForEvent('download');
  await button.click();
  return started;
}

async function planNames(page: Page): Promise<string[]> {
  return cards(page).locator('h2').allInnerTexts();
}

test('medical: the filters and the price slider change the list', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await startHousehold(page);
  const all = await apiJson<PlanList>(page, '/api/plans/1/allPlans');
  expect(all.plans.length).toBeGreaterThan(3);

  await page.goto(siteUrl('acme', '/medical'));
  await expect(page.getByRole('heading', { level: 1, name: 'Medical Plans' })).toBeVisible();
  await expect(cards(page)).toHaveCount(all.plans.length);
  await expect(page.getByText(/three oldest dependent children under 21/)).toBeVisible();
  // Spec part 1, 2.7-2.10: "Continue without ... Coverage" is for dental and vision only.
  await expect(page.getByRole('button', { name: /Continue without/ })).toHaveCount(0);
  await expectAccessible(page);

  // Carrier filter: only that carrier's plans remain.
  const blueCare = all.plans.filter((p) => p.carrier === 2);
  expect(blueCare.length).toBeGreaterThan(0);
  const filters = page.getByRole('region', { name: 'Filters' });
  await filters.getByRole('checkbox', { name: blueCare[0]!.carrier_name }).check();
  await expect(cards(page)).toHaveCount(blueCare.length);
  await expect(page.locator('.ef-plan__carrier')).toHaveText(blueCare.map(() => blueCare[0]!.carrier_name));
  await filters.getByRole('checkbox', { name: blueCare[0]!.carrier_name }).uncheck();
  await expect(cards(page)).toHaveCount(all.plans.length);

  // HSA (Other) narrows the list too.
  const hsa = await apiJson<PlanList>(page, '/api/plans/1/allPlans?filters=hsa');
  await filters.getByRole('checkbox', { name: 'HSA eligible' }).check();
  await expect(cards(page)).toHaveCount(hsa.plans.length);
  await filters.getByRole('checkbox', { name: 'HSA eligible' }).uncheck();
  await expect(cards(page)).toHaveCount(all.plans.length);

  // The price slider by keyboard: the top thumb down to the bottom keeps the cheapest plans only.
  const range = all.price_range!;
  const maxThumb = filters.getByRole('slider', { name: 'Maximum monthly premium' });
  await expect(maxThumb).toHaveValue(String(range.max));
  await maxThumb.focus();
  await page.keyboard.press('Home');
  await expect(maxThumb).toHaveValue(String(range.min));
  const cheap = all.plans.filter((p) => p.rates.total <= range.min).length;
  await expect(cards(page)).toHaveCount(cheap);
  await page.keyboard.press('End');
  await expect(cards(page)).toHaveCount(all.plans.length);
  expect(errors).toEqual([]);
});

test('medical: two plans compare, print downloads compare.pdf, Select goes to dental', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await startHousehold(page);
  const all = await apiJson<PlanList>(page, '/api/plans/1/allPlans');
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page)).toHaveCount(all.plans.length);

  // Compare two plans.
  const [first, second] = all.plans;
  const compareButton = page.getByRole('button', { name: /^Compare Selected Plans/ });
  await expect(compareButton).toBeDisabled();
  await card(page, first!.name).getByRole('checkbox', { name: 'Compare Plan' }).check();
  await expect(compareButton).toBeDisabled();
  await card(page, second!.name).getByRole('checkbox', { name: 'Compare Plan' }).check();
  await expect(compareButton).toBeEnabled();
  await compareButton.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Compare Medical Plans' })).toBeVisible();
  await expect(dialog.getByRole('row')).toHaveCount(3);
  await expect(dialog.getByRole('columnheader', { name: 'Out-of-pocket maximum (individual)' })).toBeVisible();
  await expectAccessible(page);

  const fromDialog = await printWith(page, dialog.getByRole('button', { name: 'Print this comparison' }));
  expect(fromDialog.suggestedFilename()).toBe('compare.pdf');
  expect(await pdfOf(fromDialog)).toBe('%PDF-');
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog).toBeHidden();

  // Print from the page; the buttons come back once the sheet is downloaded.
  const printButton = page.getByRole('button', { name: 'Print Medical, Dental and Vision Comparison' });
  const sheet = await printWith(page, printButton);
  expect(sheet.suggestedFilename()).toBe('compare.pdf');
  expect(await pdfOf(sheet)).toBe('%PDF-');
  await expect(printButton).toBeEnabled();

  // Select the second plan: the application moves to dental.
  await card(page, second!.name).getByRole('button', { name: 'Select' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dental Plans' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue without Dental Coverage' })).toHaveCount(2);
  await expect(cards(page).first()).toBeVisible();
  await expectAccessible(page);

  // Back on medical, the chosen plan is first, outlined, Selected with Continue.
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/medical'));
  const chosen = cards(page).first();
  await expect(chosen.locator('h2')).toHaveText(shown(second!.name));
  await expect(chosen.getByRole('button', { name: 'Selected' })).toBeDisabled();
  await expect(chosen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  expect(errors).toEqual([]);
});

test('compare stops at six plans with the warning', async ({ page }) => {
  await startHousehold(page);
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page).nth(6)).toBeVisible();
  const boxes = page.getByRole('checkbox', { name: 'Compare Plan' });
  for (let i = 0; i < 6; i += 1) await boxes.nth(i).check();
  await expect(page.getByText('You selected the maximum number of plans to compare (6).')).toBeVisible();
  await expect(boxes.nth(6)).toBeDisabled();
  await expect(boxes.nth(0)).toBeEnabled();
  await expectAccessible(page);
  await boxes.nth(0).uncheck();
  await expect(boxes.nth(6)).toBeEnabled();
  await expect(page.getByText('You selected the maximum number of plans to compare (6).')).toBeHidden();
});

test('dental with vision goes to Review Selections; vision and Change Plan', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await startHousehold(page);
  await page.goto(siteUrl('acme', '/medical'));
  const medical = await apiJson<PlanList>(page, '/api/plans/1/allPlans');
  await card(page, medical.plans[0]!.name).getByRole('button', { name: 'Select' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));

  // Dental and vision (Other): a plan that includes vision goes straight to review.
  const withVision = await apiJson<PlanList>(page, '/api/plans/2/allPlans?filters=dental_and_vision');
  const filters = page.getByRole('region', { name: 'Filters' });
  await filters.getByRole('checkbox', { name: 'Dental and vision' }).check();
  await expect(cards(page)).toHaveCount(withVision.plans.length);
  const dental = withVision.plans[0]!;
  await card(page, dental.name).getByRole('button', { name: 'Select' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));

  await expect(page.getByRole('heading', { level: 1, name: 'Review Your Selections' })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(2);
  const total = medical.plans[0]!.rates.total + dental.rates.total;
  const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(total);
  await expect(page.getByRole('region', { name: 'Your total cost' })).toContainText(dollars);
  await expectAccessible(page);
  const benefits = await printWith(page, page.getByRole('button', { name: 'Print Benefit Selection' }));
  expect(benefits.suggestedFilename()).toBe('benefits.pdf');
  expect(await pdfOf(benefits)).toBe('%PDF-');

  // Previous from review goes to dental (vision was skipped by the dental plan).
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));

  // Without dental the vision page comes next; it may be skipped since a medical plan is chosen.
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/vision'));
  await expect(page.getByRole('heading', { level: 1, name: 'Vision Plans' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue without Vision Coverage' }).first()).toBeVisible();
  const filterGroups = page.getByRole('region', { name: 'Filters' }).getByRole('group');
  await expect(filterGroups.first()).toHaveAccessibleName('Carrier');
  await expect(page.getByRole('group', { name: 'Metal' })).toHaveCount(0);
  await expectAccessible(page);

  const vision = await apiJson<PlanList>(page, '/api/plans/3/allPlans');
  const visionPlan = vision.plans[0]!;
  await card(page, visionPlan.name).getByRole('checkbox', { name: 'Compare Plan' }).check();
  await card(page, vision.plans[1]!.name).getByRole('checkbox', { name: 'Compare Plan' }).check();
  await page.getByRole('button', { name: /^Compare Selected Plans/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('columnheader', { name: 'Frames and contact lens allowance' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

  await card(page, visionPlan.name).getByRole('button', { name: 'Select' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('article')).toHaveCount(2);
  await page
    .getByRole('article', { name: shown(visionPlan.name) })
    .getByRole('link', { name: 'Change Plan' })
    .click();
  await expect(page).toHaveURL(siteUrl('acme', '/vision'));
  await expect(cards(page).first().locator('h2')).toHaveText(shown(visionPlan.name));
  expect(errors).toEqual([]);
});

test('an agent offering only Priority has no dental plans to show', async ({ page }) => {
  await openSite(page, 'lakeshore');
  const ok = await page.evaluate(async (census) => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token };
    const put = (path: string, body: unknown) =>
      fetch(path, { method: 'PUT', credentials: 'same-origin', headers, body: JSON.stringify(body) });
    await put('/api/application/step/whyApplying', { enrollment_type: 'oe' });
    await put('/api/application/step/census', census);
    const list = await (await fetch('/api/plans/1/allPlans', { credentials: 'same-origin' })).json();
    return (await put('/api/plans/1', { selected_plan_id: list.plans[0].id })).status;
  }, ADULT);
  expect(ok).toBe(200);
  await page.goto(siteUrl('lakeshore', '/dental'));
  await expect(page.getByText('Sorry, there are no plans available in your area.')).toBeVisible();
  await expect(page.getByRole('slider')).toHaveCount(0);
  await expectAccessible(page);
  expect(await planNames(page)).toEqual([]);
});

test('Apply Now saves Review Selections and goes to Subscriber Information', async ({ page }) => {
  await startHousehold(page);
  await page.goto(siteUrl('acme', '/medical'));
  await cards(page).first().getByRole('button', { name: 'Select' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/dental'));
  await page.getByRole('button', { name: 'Continue without Dental Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/vision'));
  await page.getByRole('button', { name: 'Continue without Vision Coverage' }).first().click();
  await expect(page).toHaveURL(siteUrl('acme', '/review'));
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.getByRole('button', { name: 'Apply Now' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/subInfo'));
});

test('the print buttons are disabled while the PDF is made, then compare.pdf downloads', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await startHousehold(page);
  const all = await apiJson<PlanList>(page, '/api/plans/1/allPlans');
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page)).toHaveCount(all.plans.length);

  // The print requests wait here until the test has seen the buttons disabled.
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/printPdf/**', async (route) => {
    await held;
    await route.continue();
  });
  const pagePrint = page.getByRole('button', { name: 'Print Medical Comparison' });
  const allPrint = page.getByRole('button', { name: 'Print Medical, Dental and Vision Comparison' });

  // From the page.
  let asked = page.waitForRequest((r) => r.url().includes('/api/printPdf/'));
  let download = page.waitForEvent('download');
  await allPrint.click();
  await asked;
  await expect(pagePrint).toBeDisabled();
  await expect(allPrint).toBeDisabled();
  release();
  let sheet = await download;
  expect(sheet.suggestedFilename()).toBe('compare.pdf');
  expect(await pdfOf(sheet)).toBe('%PDF-');
  await expect(pagePrint).toBeEnabled();
  await expect(allPrint).toBeEnabled();

  // From the compare dialog: its button says so while it waits.
  const again = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.unroute('**/api/printPdf/**');
  await page.route('**/api/printPdf/**', async (route) => {
    await again;
    await route.continue();
  });
  for (const plan of all.plans.slice(0, 2)) await card(page, plan.name).getByRole('checkbox', { name: 'Compare Plan' }).check();
  await page.getByRole('button', { name: /^Compare Selected Plans/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Compare Medical Plans' })).toBeVisible();
  asked = page.waitForRequest((r) => r.url().includes('/api/printPdf/'));
  download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Print this comparison' }).click();
  await asked;
  const printing = dialog.getByRole('button', { name: 'Printing…' });
  await expect(printing).toBeDisabled();
  await expectAccessible(page);
  release();
  sheet = await download;
  expect(sheet.suggestedFilename()).toBe('compare.pdf');
  expect(await pdfOf(sheet)).toBe('%PDF-');
  await expect(dialog.getByRole('button', { name: 'Print this comparison' })).toBeEnabled();
  expect(errors).toEqual([]);
});
