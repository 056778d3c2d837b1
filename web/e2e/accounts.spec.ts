import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiJson, collectConsoleErrors, enrollflowBin, enterLoginCode, expectAccessible, freshCode, operatorMail, siteUrl } from './support';

// Accounts in the browser (spec part 1, 2.3, 2.5, 4.2): the account routes' modals, the top
// bar by role, the outbox, impersonation. Users from `enrollflow seed` (README "Demo logins").
// A test that changes a password sets it back, so the demo logins keep working for other specs.

const DEMO_PASSWORD = 'demo-password-2024';
const MARIA = 'maria.alvarez@acme-insurance.example.com';
const OKAFOR = 'dokafor@lakeshore-benefits.example.com';
const GRACE = 'grace@northstar-financial.example.com';
const ADMIN = 'admin@enrollflow.example.com';
const ACME_NPN = '17439021';

/** Console errors other than the browser's own line for a refused call (a 422 or 404 is expected here). */
function consoleErrors(page: Page): () => string[] {
  const errors = collectConsoleErrors(page);
  return () => errors.filter((e) => !e.startsWith('Failed to load resource'));
}

function loginDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Agent Login' });
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  const dialog = loginDialog(page);
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Log In', exact: true }).click();
}

/** Opens /login on a site and logs in; waits for dashboard-home. */
async function logInAt(page: Page, subdomain: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(siteUrl(subdomain, '/login'));
  await logIn(page, email, password);
  // Admins always use two-step verification (the demo admin's app is the published demo secret).
  if (email === ADMIN) await enterLoginCode(page, email);
  await expect(page).toHaveURL(siteUrl(subdomain, '/dashboard/home'));
}

function userMenu(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('an agent logs in with the demo credentials, lands on dashboard-home, shares the site and logs out', async ({
  page,
  context,
}) => {
  const errors = consoleErrors(page);
  await page.goto(siteUrl('acme'));
  await page.getByRole('link', { name: 'Agent Login' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/login'));
  await expect(page).toHaveTitle('Enrollflow | Agent Login');
  const dialog = loginDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Forgot Password?' })).toBeVisible();
  await expect(dialog).toContainText('Terms of Use');
  await expectAccessible(page);

  await logIn(page, MARIA, DEMO_PASSWORD);
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
  await expect(page).toHaveTitle('Enrollflow | Dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(userMenu(page, 'Maria Alvarez')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Agent Login' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/dashboard/home');
  await expect(nav.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  const auth = await apiJson<{ is_authorized: boolean; agent_subdomain: string }>(page, '/api/get-auth-state');
  expect(auth).toMatchObject({ is_authorized: true, agent_subdomain: 'acme' });
  await expectAccessible(page);

  // Share your custom site: the address, Copy with its tooltip for 2 seconds, the Facebook link.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: siteUrl('acme', '') });
  await nav.getByRole('button', { name: 'Share your custom site' }).click();
  const share = page.getByRole('dialog', { name: 'Share your custom site' });
  await expect(share.getByLabel('Your site address')).toHaveValue(siteUrl('acme'));
  await expect(share.getByRole('link', { name: /Share on Facebook/ })).toHaveAttribute(
    'href',
    `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(siteUrl('acme'))}`,
  );
  await expectAccessible(page);
  await share.getByRole('button', { name: 'Copy', exact: true }).click();
  const tooltip = share.getByText('Link copied to clipboard');
  await expect(tooltip).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(siteUrl('acme'));
  await expectAccessible(page);
  await expect(tooltip).toBeHidden({ timeout: 3_000 });
  await share.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(share).toBeHidden();

  // Change Password: a wrong current password is shown under its field (the password stays).
  await userMenu(page, 'Maria Alvarez').click();
  await page.getByRole('button', { name: 'Change Password' }).click();
  const change = page.getByRole('dialog', { name: 'Change Password' });
  await change.getByLabel('Current password').fill('not my password');
  await change.getByLabel('New password', { exact: true }).fill('lakes and rivers of michigan');
  await change.getByLabel('Confirm new password').fill('lakes and rivers of michigan');
  await expectAccessible(page);
  await change.getByRole('button', { name: 'Change Password' }).click();
  await expect(change.getByText('The current password is incorrect.')).toBeVisible();
  await expect(change.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await change.getByRole('button', { name: 'Cancel' }).click();
  await expect(change).toBeHidden();

  // Log out: the toast for 3 seconds, the root, Agent Login again.
  await userMenu(page, 'Maria Alvarez').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  const toast = page.getByText('You were logged out successfully.');
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  await expect(nav.getByRole('link', { name: 'Agent Login' })).toBeVisible();
  await expectAccessible(page);
  await expect(toast).toBeHidden({ timeout: 5_000 });
  expect(errors()).toEqual([]);
});

test('a call from a second tab that left with the old cookie, answered after the login, does not log the agent out', async ({
  page,
  context,
}) => {
  const session = page.waitForResponse((r) => r.url().includes('/api/start') && r.ok());
  await page.goto(siteUrl('acme', '/login'));
  await session;
  const before = (await context.cookies(siteUrl('acme'))).find((c) => c.name === 'ef_session')?.value;
  expect(before).toBeTruthy();

  // The second tab's first call is held until the login has answered, then sent with the old
  // cookie: exactly what a call in flight during the login looks like to the server.
  let loggedIn: () => void = () => {};
  const loginDone = new Promise<void>((resolve) => (loggedIn = resolve));
  const second = await context.newPage();
  let held = 0;
  // (The page's first call, which starts or reads the session and hands out its token.)
  await second.route('**/api/start*', async (route) => {
    if (held++ > 0) return route.continue();
    await loginDone;
    // Sent as it left (the old cookie), answered now: the answer reaches the browser as is.
    // (Node cannot resolve *.localhost: the same request to 127.0.0.1 with the site's Host.)
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: `http://127.0.0.1:${url.port}${url.pathname}${url.search}`,
      headers: { ...route.request().headers(), host: url.host, cookie: `ef_session=${before}` },
    });
    await route.fulfill({ response });
  });
  const secondLoaded = second.goto(siteUrl('acme', '/'));

  await logIn(page, MARIA, DEMO_PASSWORD);
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
  const after = (await context.cookies(siteUrl('acme'))).find((c) => c.name === 'ef_session')?.value;
  expect(after).not.toBe(before);
  const stale = second.waitForResponse((r) => r.url().includes('/api/start'));
  loggedIn();
  const answer = await stale;
  expect(answer.status()).toBe(419);
  expect(await answer.headerValue('set-cookie')).toBeNull();
  await secondLoaded;

  // The login holds in both tabs: the cookie is the new session's, the dashboard stays.
  expect((await context.cookies(siteUrl('acme'))).find((c) => c.name === 'ef_session')?.value).toBe(after);
  await page.reload();
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
  await expect(userMenu(page, 'Maria Alvarez')).toBeVisible();
  await expect(second.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Maria Alvarez' })).toBeVisible();
});

test('a wrong password shows the error under the password field', async ({ page }) => {
  await page.goto(siteUrl('northstar', '/login'));
  await logIn(page, GRACE, 'not-the-password');
  const dialog = loginDialog(page);
  const password = dialog.getByLabel('Password', { exact: true });
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  const error = dialog.getByText('These credentials do not match our records.');
  await expect(error).toBeVisible();
  const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
  expect(describedBy.split(' ')).toContain(await error.getAttribute('id'));
  await expect(page).toHaveURL(siteUrl('northstar', '/login'));
  await expectAccessible(page);

  // Cancel goes to the landing page.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(siteUrl('northstar', '/'));
});

test('forgot password: the admin sees the mail without its link, the operator reads it whole, the link sets a new password', async ({
  page,
  browser,
}) => {
  // Three people's pages, a command line and two password changes.
  test.slow();
  const newPassword = 'grand rapids river walk';
  // The agent asks for a link.
  await page.goto(siteUrl('lakeshore', '/login'));
  await loginDialog(page).getByLabel('Email', { exact: true }).fill(OKAFOR);
  await loginDialog(page).getByRole('button', { name: 'Forgot Password?' }).click();
  const forgot = page.getByRole('dialog', { name: 'Forgot Password' });
  await expect(forgot.getByLabel('Email')).toHaveValue(OKAFOR);
  await expectAccessible(page);
  await forgot.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(forgot.getByRole('status')).toContainText('If an account uses that e-mail address');
  await expect(forgot.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await expectAccessible(page);

  // The admin opens the outbox from the Admin menu: the mail is there, its link's token hidden.
  const admin = await newPage(browser);
  await logInAt(admin, 'demo', ADMIN);
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin', exact: true }).click();
  await admin.getByRole('link', { name: 'Outbox' }).click();
  await expect(admin).toHaveURL(siteUrl('demo', '/admin/outbox'));
  await expect(admin.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  // (Okafor's other mail, such as a notice of a sign-in from a new browser, is passed over.)
  const mail = admin
    .locator('.ef-outbox__message')
    .filter({ hasText: OKAFOR })
    .filter({ hasText: 'Reset your Enrollflow password' })
    .first();
  // The mail is written just after the answer (the answer must not wait for it): reload until it is in.
  await expect(async () => {
    await admin.reload();
    await expect(mail).toContainText('Reset your Enrollflow password', { timeout: 1_000 });
  }).toPass();
  await expectAccessible(admin);
  await expect(mail).toContainText('/reset-password/token/[hidden');
  await expect(mail.getByRole('link', { name: /\/reset-password\/token\/[0-9a-f]{64}/ })).toHaveCount(0);
  await admin.context().close();

  // The recipient's copy (read here as the operator reads the demo's mail) has the link.
  const whole = await operatorMail(OKAFOR, /Reset your Enrollflow password/);
  const link = /http:\/\/\S+\/reset-password\/token\/[0-9a-f]{64}/.exec(whole.body)?.[0];
  expect(link).toMatch(new RegExp(`^${siteUrl('lakeshore', '/reset-password/token/')}`));
  expect(link).not.toContain(encodeURIComponent(OKAFOR));

  // The agent follows it and chooses a new password.
  await page.goto(link ?? '');
  const reset = page.getByRole('dialog', { name: 'Reset Password' });
  await reset.getByLabel('New password', { exact: true }).fill(newPassword);
  await reset.getByLabel('Type your new password again').fill('something else entirely');
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(reset.getByText('The password confirmation does not match.')).toBeVisible();
  await expectAccessible(page);
  await reset.getByLabel('Type your new password again').fill(newPassword);
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(reset.getByRole('status')).toContainText('Your password has been reset.');
  await expectAccessible(page);
  await reset.getByRole('link', { name: /Log in/ }).click();
  await expect(page).toHaveURL(siteUrl('lakeshore', '/login'));

  // The old password no longer works; the new one does.
  await logIn(page, OKAFOR, DEMO_PASSWORD);
  await expect(loginDialog(page).getByText('These credentials do not match our records.')).toBeVisible();
  await logIn(page, OKAFOR, newPassword);
  await expect(page).toHaveURL(siteUrl('lakeshore', '/dashboard/home'));

  // The link works once.
  await page.goto(link ?? '');
  await reset.getByLabel('New password', { exact: true }).fill('another fine passphrase');
  await reset.getByLabel('Type your new password again').fill('another fine passphrase');
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(reset.getByRole('alert')).toContainText('Sorry, the link you used is no longer valid.');

  // Change Password sets the demo password back; after success only Close remains.
  await page.goto(siteUrl('lakeshore', '/dashboard/home'));
  await userMenu(page, 'Daniel Okafor').click();
  await page.getByRole('button', { name: 'Change Password' }).click();
  const change = page.getByRole('dialog', { name: 'Change Password' });
  await change.getByLabel('Current password').fill(newPassword);
  await change.getByLabel('New password', { exact: true }).fill(DEMO_PASSWORD);
  await change.getByLabel('Confirm new password').fill(DEMO_PASSWORD);
  await change.getByRole('button', { name: 'Change Password' }).click();
  await expect(change.getByRole('status')).toContainText('Your password has been changed.');
  await expect(change.getByRole('button', { name: 'Change Password' })).toHaveCount(0);
  await expect(change.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expectAccessible(page);
  await change.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(change).toBeHidden();
});

test('an admin logs in as an agent by NPN, gets the agent branding, and switches back', async ({ page }) => {
  const errors = consoleErrors(page);
  await logInAt(page, 'demo', ADMIN);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(userMenu(page, 'Ada Admin')).toBeVisible();
  await nav.getByRole('button', { name: 'Admin', exact: true }).click();
  await expect(nav.getByRole('link', { name: 'Manage Messages' })).toHaveAttribute('href', '/manageMessages');
  await expectAccessible(page);
  await nav.getByRole('button', { name: 'Log in as an agent' }).click();

  const modal = page.getByRole('dialog', { name: 'Log in as an agent' });
  const npn = modal.getByLabel('Agent NPN');
  const search = modal.getByRole('button', { name: 'Search' });
  await expect(search).toBeDisabled();
  await expect(npn).toHaveAttribute('maxlength', '10');
  await npn.fill('12345');
  await search.click();
  await expect(modal.getByRole('alert')).toContainText('Agent not found');
  await expectAccessible(page);

  await npn.fill(ACME_NPN);
  await search.click();
  const maria = modal.getByRole('listitem').filter({ hasText: MARIA });
  await expect(maria).toContainText('Maria Alvarez');
  await expectAccessible(page);
  await maria.getByRole('button', { name: /^Log In/ }).click();

  // Now the agent: the agent's branding, no Admin menu, Switch back to Admin instead of Change Password.
  await expect(page).toHaveURL(siteUrl('demo', '/dashboard/home'));
  await expect(userMenu(page, 'Maria Alvarez')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('img', { name: 'Acme Insurance Agency logo' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Admin', exact: true })).toHaveCount(0);
  expect(await apiJson(page, '/api/get-auth-state')).toMatchObject({
    is_authorized: true,
    is_admin: false,
    impersonating: true,
    agent_subdomain: 'acme',
    admin_subdomain: 'demo',
  });
  // Every page says whose account this is, first, with the way back.
  const actingAs = page.getByRole('region', { name: 'Acting as an agent' });
  await expect(actingAs).toContainText('You are acting as Maria Alvarez.');
  await expect(actingAs.getByRole('button', { name: 'Return to admin' })).toBeVisible();
  await page.goto(siteUrl('demo', '/dashboard/quoting'));
  await expect(actingAs).toContainText('You are acting as Maria Alvarez.');
  await expectAccessible(page);
  await page.goto(siteUrl('demo', '/dashboard/home'));
  await userMenu(page, 'Maria Alvarez').click();
  // Spec part 1, 2.3: Change Password stays in the menu while impersonating (the admin's own).
  await expect(nav.getByRole('button', { name: 'Change Password' })).toHaveCount(1);
  await expectAccessible(page);
  await nav.getByRole('button', { name: 'Switch back to Admin' }).click();

  // The admin again, with the admin's own site's branding.
  await expect(userMenu(page, 'Ada Admin')).toBeVisible();
  await expect(actingAs).toHaveCount(0);
  await expect(page).toHaveURL(siteUrl('demo', '/dashboard/home'));
  await expect(page.getByRole('banner').getByRole('img', { name: 'Enrollflow Demo Agency logo' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Admin', exact: true })).toBeVisible();
  expect(await apiJson(page, '/api/get-auth-state')).toMatchObject({
    is_admin: true,
    impersonating: false,
    admin_subdomain: null,
  });
  expect(errors()).toEqual([]);
});

test('a visitor opening a dashboard page logs in and returns there; other sites are never a redirect target', async ({
  page,
}) => {
  await page.goto(siteUrl('acme', '/dashboard/home'));
  await expect(page).toHaveURL(siteUrl('acme', '/login?redirectFrom=%2Fdashboard%2Fhome'));
  await expect(loginDialog(page)).toBeVisible();
  await expectAccessible(page);

  await page.goto(siteUrl('acme', '/dashboard/enrolled'));
  await expect(page).toHaveURL(siteUrl('acme', '/login?redirectFrom=%2Fdashboard%2Fenrolled'));
  await logIn(page, MARIA, DEMO_PASSWORD);
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/enrolled'));
  await expect(page.getByRole('heading', { level: 1, name: /^Submissions/ })).toBeVisible();

  // Logged out again, a crafted link to another site lands on dashboard-home instead.
  await userMenu(page, 'Maria Alvarez').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(siteUrl('acme', '/'));
  await page.goto(siteUrl('acme', `/login?redirectFrom=${encodeURIComponent('//evil.example/phish')}`));
  await logIn(page, MARIA, DEMO_PASSWORD);
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
});

test('an invitation link creates the account, which can then log in; a used link is no longer valid', async ({
  page,
  browser,
}) => {
  // The invitation comes from the CLI, as an operator would send it (README "Demo logins"); its
  // text is the server's own account mail, not a rule set's.
  const bin = enrollflowBin();
  expect(existsSync(bin), `the enrollflow binary at ${bin}`).toBe(true);
  const email = `sam.rivera.${Date.now()}@example.com`;
  execFileSync(
    bin,
    ['invite', '--email', email, '--first-name', 'Sam', '--last-name', 'Rivera', '--npn', ACME_NPN, '--base-url', siteUrl('acme', '')],
    { env: { ...process.env, ENROLLFLOW_LOG: 'warn' }, stdio: 'pipe' },
  );

  // An admin reading the outbox through the API sees the mail without a usable link.
  const admin = await newPage(browser);
  await logInAt(admin, 'demo', ADMIN);
  const outbox = await apiJson<{ to_address: string; subject: string; body: string }[]>(admin, '/api/admin/outbox');
  const shown = outbox.find((m) => m.to_address === email);
  expect(shown?.subject).toBe('Create your Enrollflow account');
  expect(shown?.body).toContain('/register/token/[hidden');
  await admin.context().close();
  // The operator reads it whole (README "Demo logins").
  const mail = await operatorMail(email, /Create your Enrollflow account/);
  const link = /http:\/\/\S+\/register\/token\/[0-9a-f]{64}\//.exec(mail.body)?.[0];
  expect(link).toBeTruthy();

  await page.goto(link ?? '');
  await expect(page).toHaveTitle('Enrollflow | Create Your Account');
  const dialog = page.getByRole('dialog', { name: 'Create Your Account' });
  await expect(dialog).toContainText('Welcome, Sam Rivera!');
  await expect(dialog).toContainText(email);
  await dialog.getByLabel('Password', { exact: true }).fill('sleeping bear dunes');
  await dialog.getByLabel('Type your password again').fill('sleeping bear dunes');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(dialog.getByText('You must agree to the Terms of Use.')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('I agree to the Terms of Use').check();
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(dialog.getByRole('status')).toContainText('Thank you for creating your account.');
  await expectAccessible(page);
  await dialog.getByRole('link', { name: /Log in/ }).click();
  await logIn(page, email, 'sleeping bear dunes');
  await expect(page).toHaveURL(siteUrl('acme', '/dashboard/home'));
  await expect(userMenu(page, 'Sam Rivera')).toBeVisible();

  await page.goto(link ?? '');
  await expect(page.getByRole('dialog', { name: 'Create Your Account' }).getByRole('alert')).toContainText(
    'Sorry, the link you used is no longer valid.',
  );
  await expectAccessible(page);
});

test('an agent sets up two-step verification by the QR code, logs in with a code or once with a recovery code, and turns it off', async ({
  page,
  browser,
}) => {
  const errors = consoleErrors(page);
  await logInAt(page, 'northstar', GRACE);
  await userMenu(page, 'Grace Lindqvist').click();
  await page.getByRole('button', { name: 'Two-step verification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Two-step verification' });
  await expect(dialog).toContainText('Off.');
  await dialog.getByRole('button', { name: 'Set up' }).click();
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expectAccessible(page);
  // What the phone's app reads from the QR code is the key shown under it.
  const secret = ((await dialog.locator('.ef-app-setup__secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByLabel(/^Your password/).fill(DEMO_PASSWORD);
  await dialog.getByLabel(/^Authentication code/).fill(await freshCode(GRACE, secret));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = ((await codes.nth(0).textContent()) ?? '').trim();
  expect(recovery).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){5}$/);
  await dialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(dialog).toContainText('10 of your recovery codes are left');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Another browser: the password alone is not enough; a wrong code says so; the app's code logs in.
  const other = await newPage(browser);
  await other.goto(siteUrl('northstar', '/login'));
  await logIn(other, GRACE, DEMO_PASSWORD);
  const step = other.getByRole('dialog', { name: 'Two-step verification' });
  await step.getByLabel(/^Authentication code/).fill('000000');
  await step.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(step.getByText(/That code is not right/)).toBeVisible();
  await expectAccessible(other);
  await step.getByLabel(/^Authentication code/).fill(await freshCode(GRACE, secret));
  await step.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(other).toHaveURL(siteUrl('northstar', '/dashboard/home'));
  await other.context().close();

  // A lost phone: a recovery code logs in once.
  for (const expected of ['in', 'refused']) {
    const third = await newPage(browser);
    await third.goto(siteUrl('northstar', '/login'));
    await logIn(third, GRACE, DEMO_PASSWORD);
    const lost = third.getByRole('dialog', { name: 'Two-step verification' });
    await lost.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
    await lost.getByLabel(/^Recovery code/).fill(recovery.toLowerCase());
    await lost.getByRole('button', { name: 'Verify', exact: true }).click();
    if (expected === 'in') await expect(third).toHaveURL(siteUrl('northstar', '/dashboard/home'));
    else await expect(lost.getByText(/That recovery code is not right, or it was used already/)).toBeVisible();
    await third.context().close();
  }

  // Off again with the password and a code from the app (other specs log Grace in with her
  // password alone): the password alone does not turn it off.
  await userMenu(page, 'Grace Lindqvist').click();
  await page.getByRole('button', { name: 'Two-step verification' }).click();
  await expect(dialog).toContainText('9 of your recovery codes are left');
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await dialog.getByLabel(/^Your password/).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog.getByText(/Enter a code from your current authenticator app/)).toBeVisible();
  await dialog.getByLabel(/^Code from your current app/).fill(await freshCode(GRACE, secret));
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog).toContainText('Two-step verification is off.');
  expect(errors()).toEqual([]);
});

test('an admin reads the audit log, filtered, and opens the security settings', async ({ page }) => {
  const errors = consoleErrors(page);
  await logInAt(page, 'demo', ADMIN);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Admin', exact: true }).click();
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(siteUrl('demo', '/admin/audit'));
  await expect(page).toHaveTitle('Enrollflow | Audit log');
  const table = page.getByRole('table');
  await expect(table.getByRole('cell', { name: 'Login', exact: true }).first()).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Action').selectOption({ label: 'Login' });
  await page.getByLabel(/^Person's e-mail/).fill(ADMIN);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('Ada Admin');
  for (const action of await table.locator('tbody tr td:nth-child(2)').allTextContents()) expect(action).toBe('Login');

  await nav.getByRole('button', { name: 'Admin', exact: true }).click();
  await nav.getByRole('button', { name: 'Security settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Security settings' });
  await expect(settings.getByLabel('Require two-step verification for all agents')).not.toBeChecked();
  await expect(settings.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectAccessible(page);
  await settings.getByRole('button', { name: 'Close', exact: true }).click();
  expect(errors()).toEqual([]);
});
