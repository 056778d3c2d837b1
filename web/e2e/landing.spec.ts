import { expect, test } from './fixtures';
import { collectConsoleErrors, expectAccessible, siteUrl } from './support';

test.describe('landing page', () => {
  test('acme (Blue + Priority): supported agent with Get a Quote', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto(siteUrl('acme'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/individual plans tailored to your life/i);
    await expect(page).toHaveTitle('Enrollflow | Home');
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toHaveAttribute('href', '/whyapplying');
    await expect(page.getByRole('region', { name: 'Presented by' })).toBeVisible();
    await expect(page.getByText(/Michigan residents/)).toBeVisible();
    await expect(page.getByText(/Medicare/)).toBeVisible();
    // Root shows the agent card, not the Presented by button.
    await expect(page.getByRole('button', { name: /^Presented by/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Agent Login' })).toHaveAttribute('href', '/login');
    await expect(page.getByText(/demonstration site/i)).toHaveCount(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  test('lakeshore (Priority only): still supported', async ({ page }) => {
    await page.goto(siteUrl('lakeshore'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/individual plans tailored to your life/i);
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toBeVisible();
    await expectAccessible(page);
  });

  test('northstar (neither carrier): not-supported message', async ({ page }) => {
    await page.goto(siteUrl('northstar'));
    await expect(page.getByText("We're sorry – this agent does not support Enrollflow at this time.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('demo: demonstration notice', async ({ page }) => {
    await page.goto(siteUrl('demo'));
    await expect(page.getByText('This is a demonstration site')).toBeVisible();
    await expect(page.getByText('Applications submitted on this site will not be processed.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toBeVisible();
    await expectAccessible(page);
  });

  test('nosuch: unknown web address', async ({ page }) => {
    await page.goto(siteUrl('nosuch'));
    await expect(page.getByText(/did not match one of our agents/)).toBeVisible();
    await expect(page.getByText(/check the spelling/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('a first visit asks for what it draws in two calls, both while the script downloads', async ({ page }) => {
    const first = ['/api/start', '/api/site', '/api/get-auth-state', '/api/application/active', '/api/flow'];
    const asked: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (first.includes(path)) asked.push(path);
    });
    await page.goto(siteUrl('acme'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/individual plans tailored to your life/i);
    await expect(page.getByRole('region', { name: 'Presented by' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get a Quote' })).toHaveAttribute('href', '/whyapplying');
    // The session, its application and the flow in one answer, the site in another: index.html's
    // preloads, used by the app (one it did not use would be asked again).
    expect(asked.sort()).toEqual(['/api/site', '/api/start']);
    const preloaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'link')
        .map((e) => new URL(e.name).pathname)
        .filter((path) => path.startsWith('/api/'))
        .sort(),
    );
    expect(preloaded).toEqual(['/api/site', '/api/start']);
  });

  test('Get a Quote opens the first step', async ({ page }) => {
    await page.goto(siteUrl('acme'));
    await page.getByRole('link', { name: 'Get a Quote' }).click();
    await expect(page).toHaveURL(siteUrl('acme', '/whyapplying'));
    await expect(page).toHaveTitle('Enrollflow | Why Are You Applying?');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Why Are You Applying?');
  });
});
