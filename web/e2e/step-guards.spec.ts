import { expect, test } from './fixtures';
import { siteUrl, openSite } from './support';

test('step routes need the server to confirm the step (validStep)', async ({ page }) => {
  await openSite(page, 'acme');
  // Start an application the way the Why Are You Applying? form will: save step 1 (last step becomes 2).
  const saved = await page.evaluate(async () => {
    const auth = await (await fetch('/api/get-auth-state', { credentials: 'same-origin' })).json();
    const res = await fetch('/api/application/step/whyApplying', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': auth.csrf_token },
      body: JSON.stringify({ enrollment_type: 'oe' }),
    });
    return { status: res.status, body: await res.json() };
  });
  expect(saved.status).toBe(200);
  expect(saved.body.application.lastStep).toBe(2);

  await page.goto(siteUrl('acme', '/census'));
  await expect(page.getByRole('heading', { level: 1, name: 'First tell us a little about yourself' })).toBeVisible();
  await expect(page).toHaveURL(siteUrl('acme', '/census'));
  const progress = page.getByRole('navigation', { name: 'Application progress' });
  await expect(progress.getByRole('link', { name: 'Basic Info' })).toHaveAttribute('aria-current', 'step');
  await expect(progress.getByText('Medical', { exact: true })).toHaveAttribute('aria-disabled', 'true');

  // Review Selections (step 6) is past the last step reached: the server says no, the guard goes to the root.
  await page.goto(siteUrl('acme', '/review'));
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  await expect(page.getByRole('link', { name: 'Continue Quote' })).toHaveAttribute('href', '/census');
});
