import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, expectAccessible, siteUrl } from './support';

test('Presented by modal on /whyapplying shows the agency and formatted phone', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto(siteUrl('acme', '/whyapplying'));
  const branding = await apiJson<{ agent_name: string; agency_name: string; phone_number: string }>(
    page,
    '/api/agent_branding/acme',
  );
  const digits = branding.phone_number.replace(/\D/g, '').slice(0, 10);
  const formatted = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;

  await expect(page.getByRole('navigation', { name: 'Application progress' }).locator('[aria-current="step"]')).toHaveText(
    'Get Started',
  );
  await expectAccessible(page);

  const button = page.getByRole('button', { name: /^Presented by/ });
  await expect(button).toContainText(branding.agent_name);
  await button.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(branding.agency_name);
  const phone = dialog.getByRole('link', { name: formatted });
  await expect(phone).toHaveAttribute('href', `tel:1${digits}`);
  await expect(phone).toHaveAttribute('href', /^tel:1\d{10}$/);
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  expect(errors).toEqual([]);
});

for (const [name, endpoint] of [
  ['Privacy Policy', 'privacy'],
  ['Terms of Use', 'terms'],
] as const) {
  test(`footer ${name} modal opens and closes`, async ({ page }) => {
    await page.goto(siteUrl('acme'));
    const doc = await apiJson<{ title: string; html: string }>(page, `/api/legal/${endpoint}`);
    const firstText = String(doc.html)
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 40)
      .trim();

    const footer = page.getByRole('contentinfo');
    await footer.getByRole('button', { name }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(doc.title);
    await expect(dialog).toContainText(firstText);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await footer.getByRole('button', { name }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
  });
}

test('footer names the tool owner and the general agent', async ({ page }) => {
  await page.goto(siteUrl('acme'));
  const site = await apiJson<{ tool_owner: string; general_agent: string }>(page, '/api/site');
  await expect(page.getByRole('contentinfo')).toContainText(site.tool_owner);
  await expect(page.getByRole('contentinfo')).toContainText(site.general_agent);
});

test('unknown path goes to /404', async ({ page }) => {
  await page.goto(siteUrl('acme', '/nope'));
  await expect(page).toHaveURL(siteUrl('acme', '/404'));
  await expect(page.getByText('Whoops! Looks like the page you requested cannot be found')).toBeVisible();
  await expectAccessible(page);
});

test('steps after whyApplying need an application', async ({ page }) => {
  await page.goto(siteUrl('acme', '/census'));
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  await expect(page).toHaveTitle('Enrollflow | Home');
});

test('dashboard sends visitors to login with redirectFrom', async ({ page }) => {
  await page.goto(siteUrl('acme', '/dashboard/quoting'));
  await expect(page).toHaveURL(siteUrl('acme', '/login?redirectFrom=%2Fdashboard%2Fquoting'));
  await expectAccessible(page);
});

test('login, register and reset-password routes show the landing page', async ({ page }) => {
  for (const path of ['/login', '/register/token/abc/', '/reset-password/email/a%40b.com/token/xyz']) {
    await page.goto(siteUrl('acme', path));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/individual plans tailored to your life/i);
  }
  await expectAccessible(page);
});

test('the bare host is an unknown agent', async ({ page }) => {
  await page.goto(siteUrl(null));
  await expect(page.getByText(/did not match one of our agents/)).toBeVisible();
});

test('top bar is keyboard reachable', async ({ page }) => {
  await page.goto(siteUrl('acme', '/whyapplying'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});
