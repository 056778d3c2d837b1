import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors, expectAccessible, siteUrl } from './support';

// The agent's Quoting list (issue 7, item 2): a quote made through the API shows, search narrows
// the list, Export downloads Exported_Quotes.xlsx.

const LAST_NAME = 'Quotewright';

/** Logs in as the acme agent and starts one quote (Why Are You Applying?, then About You). */
async function agentWithQuote(page: Page): Promise<void> {
  await page.goto(siteUrl('acme'));
  const statuses = await page.evaluate(async (lastName) => {
    const token = async () => (await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json()).csrf_token as string;
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': await token() },
        body: JSON.stringify(body),
      });
      return res.status;
    };
    return [
      await send('POST', '/api/login', { email: 'maria.alvarez@acme-insurance.example.com', password: 'demo-password-2024' }),
      await send('PUT', '/api/application/step/whyApplying', { enrollment_type: 'oe' }),
      await send('PUT', '/api/application/step/census', {
        sub_first_name: 'Zoe',
        sub_last_name: lastName,
        email: 'zoe.quotewright@example.com',
        sub_gender: 'F',
        sub_birth_date: '1984-06-15',
        sub_tobacco: 0,
        residential_zip: '48104',
        residential_county_id: 161,
        spouse: { gender: 'M', birth_date: '1983-02-01', tobacco: 0 },
        dependents: [{ gender: 'F', birth_date: '2015-09-09' }],
        medicare_eligible: 0,
        wants_subsidy: 0,
      }),
    ];
  }, LAST_NAME);
  expect(statuses).toEqual([200, 200, 200]);
}

test('the agent finds a new quote in Quoting, narrows it by search and exports the list', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await agentWithQuote(page);
  // The landing page opened before the API login may answer 419 to its own calls; count from here.
  errors.length = 0;
  await page.goto(siteUrl('acme', '/dashboard/quoting'));
  await expect(page.getByRole('heading', { level: 1, name: /Quoting/ })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: `Zoe ${LAST_NAME}` });
  // The list is sorted by name; the new quote may sit on a later page, so search for it.
  const search = page.getByLabel('Search name & email');
  await search.fill('quotewright');
  await expect(row).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(row).toContainText('zoe.quotewright@example.com');
  await expect(row).toContainText('OEP');
  await expect(row.getByRole('cell').nth(5)).toHaveText('3');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1');
  await expectAccessible(page);

  await search.fill('no-such-customer-xyz');
  await expect(page.getByText('No results were found')).toBeVisible();
  await search.fill(LAST_NAME);
  await expect(row).toBeVisible();

  // Sorting by Created Date, newest first, is announced on the header.
  await page.getByRole('button', { name: /Created Date/ }).click();
  await expect(page.getByRole('columnheader', { name: /Created Date/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(row).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Exported_Quotes.xlsx');
  const path = await download.path();
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 2).toString()).toBe('PK'); // an xlsx is a zip
  await expect(page.getByRole('button', { name: 'Export' })).toBeEnabled();

  // Keyboard: the Filters control opens with Enter and the product boxes are reachable.
  await page.getByRole('button', { name: 'Filters' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'true');
  await page.getByLabel('Medical').check();
  await expect(page.getByText('No results were found')).toBeVisible(); // the quote has no plan yet
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('Submissions lists with its own title and columns', async ({ page }) => {
  await agentWithQuote(page);
  await page.goto(siteUrl('acme', '/dashboard/enrolled'));
  await expect(page.getByRole('heading', { level: 1, name: /Submissions/ })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /Submit Date/ })).toHaveAttribute('aria-sort', 'descending');
  await expectAccessible(page);
});
