import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { collectConsoleErrors, expectAccessible, openSite, siteUrl } from './support';

// The medical plans' yearly estimate: each card's total beside the monthly premium, its parts,
// each member's expected use of care (stored with the application), the list sorted by the
// estimate and the comparison showing it. On the `acme` site; the household made through the API.

test.describe.configure({ timeout: 90_000 });

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/screens';

const COUPLE = {
  sub_first_name: 'Rosa',
  sub_last_name: 'Diaz',
  email: 'rosa.diaz@example.com',
  sub_gender: 'F',
  sub_birth_date: '1984-06-15',
  sub_tobacco: 0,
  residential_zip: '48104',
  residential_county_id: 161,
  medicare_eligible: 0,
  wants_subsidy: 0,
  spouse: { gender: 'M', birth_date: '1982-02-01', tobacco: 0 },
};

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
      return res.status;
    };
    return [await put('/api/application/step/whyApplying', { enrollment_type: 'oe' }), await put('/api/application/step/census', census)];
  }, COUPLE);
  expect(steps).toEqual([200, 200]);
}

/** "$1,234.56" as a number. */
function dollars(text: string | null): number {
  const m = /\$([\d,]+\.\d{2})/.exec(text ?? '');
  if (!m) throw new Error(`no amount in ${text}`);
  return Number(m[1]!.replace(/,/g, ''));
}

const cards = (page: Page): Locator => page.locator('article.ef-plan');

async function yearlyTotals(page: Page): Promise<number[]> {
  const texts = await cards(page).locator('.ef-plan__yearly-amount').allTextContents();
  return texts.map(dollars);
}

test('each medical plan shows its yearly estimate, which follows each member’s expected use and orders the list', async ({ page }) => {
  const consoleErrors = collectConsoleErrors(page);
  await startHousehold(page);
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page).first()).toBeVisible();
  // Every card of the list (drawn a slice at a time) has an estimate.
  const count = Number((await page.locator('.ef-plans__count').textContent())?.match(/\d+/)?.[0]);
  expect(count).toBeGreaterThan(10);
  await expect(cards(page)).toHaveCount(count);
  await expect(cards(page).locator('.ef-plan__yearly-amount')).toHaveCount(count);
  await expect(cards(page).first()).toContainText('estimated for the year');

  // The parts of a card's estimate add up to its total; the worst case is at least the total.
  const first = cards(page).first();
  await first.getByText('What makes up the yearly estimate').click();
  const row = (name: string) => first.getByRole('row', { name: new RegExp(name) }).getByRole('cell');
  const premiums = dollars(await row('Premiums for 12 months').textContent());
  const deductible = dollars(await row('Paid toward the deductible').textContent());
  const sharing = dollars(await row('Copays and coinsurance').textContent());
  const total = dollars(await row('Estimated total').textContent());
  const worst = dollars(await row('Worst case').textContent());
  expect(Math.round((premiums + deductible + sharing) * 100)).toBe(Math.round(total * 100));
  expect(worst).toBeGreaterThanOrEqual(total);
  const monthly = dollars(await first.locator('.ef-plan__amount').textContent());
  expect(Math.round(monthly * 12 * 100)).toBe(Math.round(premiums * 100));
  await page.screenshot({ path: `${SHOTS}/yearly-cost-1280.png`, fullPage: false });

  // The husband expects high use: every estimate goes up, and the choice is kept.
  const before = await yearlyTotals(page);
  await page.getByText('Expected use of care').click();
  const spouse = page.getByLabel(/^Spouse, age/);
  await expect(spouse).toHaveValue('medium');
  await spouse.selectOption('high');
  await expect.poll(async () => (await yearlyTotals(page)).reduce((a, b) => a + b, 0)).toBeGreaterThan(before.reduce((a, b) => a + b, 0));
  await expectAccessible(page);

  // Sorted by the estimate: lowest first.
  await page.getByLabel('Sort by').selectOption('yearly');
  await expect(cards(page)).toHaveCount(count);
  const sorted = await yearlyTotals(page);
  expect(sorted).toEqual([...sorted].sort((a, b) => a - b));

  // Compared: the estimate is a column.
  await cards(page).nth(0).getByLabel('Compare Plan').check();
  await cards(page).nth(1).getByLabel('Compare Plan').check();
  await page.getByRole('button', { name: /Compare Selected Plans/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('columnheader', { name: 'Estimated yearly cost' })).toBeVisible();
  await expect(dialog.getByRole('cell', { name: `$${sorted[0]!.toLocaleString('en-US', { minimumFractionDigits: 2 })}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Back later: the spouse's high use is still there.
  await page.reload();
  await page.getByText('Expected use of care').click();
  await expect(page.getByLabel(/^Spouse, age/)).toHaveValue('high');

  // On a phone the form comes first and the estimate fits the card.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page).first().locator('.ef-plan__yearly-amount')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
  await page.screenshot({ path: `${SHOTS}/yearly-cost-360.png`, fullPage: false });
  expect(consoleErrors).toEqual([]);
});

test('Spanish: the yearly estimate and the expected use of care', async ({ page }) => {
  await startHousehold(page);
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.goto(siteUrl('acme', '/medical'));
  await expect(cards(page).first()).toContainText('estimado para el año');
  await page.getByText('Uso previsto de atención médica').click();
  await expect(page.getByLabel(/^Cónyuge/)).toHaveValue('medium');
});
